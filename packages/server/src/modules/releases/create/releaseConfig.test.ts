import { describe, expect, it } from 'vitest';
import { parseReleaseConfig } from './releaseConfig.ts';

describe('.wharf.yml', () => {
  it('reads db and email forms, with their honeypot field', () => {
    const text =
      'forms:\n  - name: contact\n    type: email\n    recipient: me@example.com\n  - name: signups\n    type: db\n    honeypot: bot-field\n';
    expect(parseReleaseConfig(text)).toEqual({
      forms: [
        { name: 'contact', type: 'email', recipient: 'me@example.com' },
        { name: 'signups', type: 'db', honeypot: 'bot-field' },
      ],
      problems: [],
    });
  });

  it('takes a build section as the repository keeps it, which an upload leaves to builds', () => {
    const text = 'build:\n  command: npm run docs\n  publish: site\nforms:\n  - name: contact\n    type: db\n';
    expect(parseReleaseConfig(text)).toEqual({ forms: [{ name: 'contact', type: 'db' }], problems: [] });
  });

  it('accepts an empty file, and an empty list of forms', () => {
    expect(parseReleaseConfig('')).toEqual({ forms: [], problems: [] });
    expect(parseReleaseConfig('forms:\n')).toEqual({ forms: [], problems: [] });
  });

  it.each([
    ['forms:\n  - name: contact\n    type: email\n    recipient: nope\n', 4, 'forms.0.recipient: Invalid email'],
    ['forms:\n  - name: bad-name\n    type: db\n', 2, 'forms.0.name: Must match ^[A-Za-z_]+$'],
    ['forms:\n  - name: a\n    type: db\n  - name: A\n    type: db\n', 4, 'forms.1.name: Form name must be unique'],
    ['forms:\n  - name: a\n    type: fax\n', 3, 'forms.0.type: Must be db or email'],
    ['forms:\n  - name: a\n    type: db\n    colour: red\n', 4, 'forms.0: Unrecognized key: "colour"'],
  ])('reports a bad form with its line and leaves it out: %j', (text, line, message) => {
    const { forms, problems } = parseReleaseConfig(text);
    expect(problems).toEqual([{ file: '.wharf.yml', line, message, severity: 'error' }]);
    expect(forms.map((form) => form.name)).toEqual(text.includes('name: A') ? ['a'] : []);
  });

  it('keeps the good forms beside a bad one', () => {
    const text = 'forms:\n  - name: good\n    type: db\n  - name: bad\n    type: email\n';
    const { forms, problems } = parseReleaseConfig(text);
    expect(forms).toEqual([{ name: 'good', type: 'db' }]);
    expect(problems.map((problem) => [problem.line, problem.message])).toEqual([
      [4, 'forms.1.recipient: Input is required'],
    ]);
  });

  it.each([
    ['forms: [\n', 2],
    ['- a\n- b\n', 1],
    ['form:\n  - name: a\n', 1],
  ])('applies nothing of a file that is not a config at all: %j', (text, line) => {
    const { forms, problems } = parseReleaseConfig(text);
    expect(forms).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.line).toBe(line);
  });
});
