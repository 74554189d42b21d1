import { describe, expect, it } from 'vitest';
import { parseReleaseConfig } from './releaseConfig.ts';

describe('.wharf.yml', () => {
  it('reads db and email forms', () => {
    const text =
      'forms:\n  - name: contact\n    type: email\n    recipient: me@example.com\n  - name: signups\n    type: db\n';
    expect(parseReleaseConfig(text).forms).toEqual([
      { name: 'contact', type: 'email', recipient: 'me@example.com' },
      { name: 'signups', type: 'db' },
    ]);
  });

  it('accepts an empty file', () => {
    expect(parseReleaseConfig('').forms).toEqual([]);
  });

  it.each([
    [
      'forms:\n  - name: contact\n    type: email\n    recipient: nope\n',
      '.wharf.yml line 4: forms.0.recipient: Invalid email',
    ],
    ['forms:\n  - name: bad-name\n    type: db\n', '.wharf.yml line 2: forms.0.name: Must match ^[A-Za-z_]+$'],
    [
      'forms:\n  - name: a\n    type: db\n  - name: A\n    type: db\n',
      '.wharf.yml line 4: forms.1.name: Form name must be unique',
    ],
    ['forms:\n  - name: a\n    type: fax\n', '.wharf.yml line 3: forms.0.type: Must be db or email'],
    ['forms: [\n', '.wharf.yml line 2:'],
  ])('names the line and the problem', (text, message) => {
    expect(() => parseReleaseConfig(text)).toThrow(message);
  });
});
