import { describe, expect, it } from 'vitest';
import { formOf, formValues, validateForms } from './formValues.ts';
import { redirectOf, redirectValues, validateRedirects } from './redirectValues.ts';

describe('redirect rules in the editor', () => {
  it('keeps only the settings of the chosen type', () => {
    const values = { ...redirectValues(), path: '/api', content: 'kept aside', url: 'https://api.example.com' };
    expect(redirectOf(values)).toEqual({ type: 'file', path: '/api', config: { content: 'kept aside' } });
    expect(redirectOf({ ...values, type: 'reverse_proxy' })).toEqual({
      type: 'reverse_proxy',
      path: '/api',
      config: { url: 'https://api.example.com' },
    });
  });

  it('reads back what the server holds', () => {
    const rule = { type: 'reverse_proxy', path: '/a', config: { url: 'https://x.example', stripPathPrefix: '/a' } };
    expect(redirectOf(redirectValues(rule as never))).toEqual(rule);
  });

  it("reports spec.md's messages on the editor's own fields", () => {
    const blank = redirectValues();
    expect(validateRedirects({ redirects: [blank] })).toEqual({ 'redirects.0.path': 'Input is required' });
    expect(validateRedirects({ redirects: [{ ...blank, path: 'x' }] })).toEqual({
      'redirects.0.path': "Must start with '/'",
    });
    const twice = [
      { ...blank, path: '/a' },
      { ...blank, path: '/a', type: 'reverse_proxy' as const },
    ];
    expect(validateRedirects({ redirects: twice })).toEqual({
      'redirects.1.url': 'Input is required',
      'redirects.1.path': 'Branch name must be unique',
    });
  });
});

describe('forms in the editor', () => {
  it('sends a recipient only for email forms', () => {
    expect(formOf({ type: 'db', name: 'contact', recipient: 'kept@example.com' })).toEqual({
      type: 'db',
      name: 'contact',
    });
    expect(formValues({ type: 'email', name: 'news', recipient: 'a@b.c' })).toEqual({
      type: 'email',
      name: 'news',
      recipient: 'a@b.c',
    });
  });

  it('refuses names that are not letters and underscores, or repeated in any case', () => {
    const form = (name: string) => ({ type: 'db' as const, name, recipient: '' });
    expect(validateForms({ forms: [form('contact-us')] })).toEqual({ 'forms.0.name': 'Must match ^[A-Za-z_]+$' });
    expect(validateForms({ forms: [form('Contact'), form('contact')] })).toEqual({
      'forms.1.name': 'Form name must be unique',
    });
    expect(validateForms({ forms: [{ type: 'email', name: 'news', recipient: 'nobody' }] })).toEqual({
      'forms.0.recipient': 'Invalid email',
    });
  });
});
