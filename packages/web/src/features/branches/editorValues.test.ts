import type { SiteForm } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { type FormValues, formOf, formValues, isOnBranch, validateForms } from './formValues.ts';
import { redirectField, redirectOf, redirectValues, validateRedirects } from './redirectValues.ts';

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

  it('reads back a redirect rule with its target and status, and sends the status as a number', () => {
    const rule = { type: 'redirect', path: '/old', config: { target: 'https://www.example.com/new', status: 308 } };
    const values = redirectValues(rule as never);
    expect(values).toMatchObject({
      type: 'redirect',
      path: '/old',
      target: 'https://www.example.com/new',
      status: '308',
    });
    expect(redirectOf(values)).toEqual(rule);
  });

  it("starts a redirect at 301 and leaves the other types' settings behind", () => {
    const values = {
      ...redirectValues(),
      type: 'redirect' as const,
      path: '/a',
      target: '/b',
      url: 'https://x.example',
    };
    expect(redirectOf(values)).toEqual({ type: 'redirect', path: '/a', config: { target: '/b', status: 301 } });
  });

  it("reports a redirect's target on its own field, as the server names it or the form finds it", () => {
    const values = { ...redirectValues(), type: 'redirect' as const, path: '/a', target: 'elsewhere' };
    expect(validateRedirects({ redirects: [values] })).toEqual({
      'redirects.0.target': "Must start with '/' or be an http(s) URL",
    });
    expect(redirectField('redirects.2.config.status')).toBe('redirects.2.status');
    expect(redirectField('redirects.2.path')).toBe('redirects.2.path');
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
  const values = (entry: Partial<FormValues>): FormValues => ({ ...formValues(), ...entry });

  it('sends a recipient only for email forms, and a form for every branch as such', () => {
    expect(formOf(values({ type: 'db', name: 'contact', recipient: 'kept@example.com' }))).toEqual({
      type: 'db',
      name: 'contact',
      branches: null,
    });
    const news: SiteForm = { type: 'email', name: 'news', recipient: 'a@b.c', branches: ['b1'], detected: false };
    expect(formValues(news)).toEqual({ ...news, honeypot: '', branches: ['b1'] });
    expect(formOf(formValues(news))).toEqual({ type: 'email', name: 'news', recipient: 'a@b.c', branches: ['b1'] });
  });

  it('keeps the honeypot a page named, which the editor does not show', () => {
    const found: SiteForm = { type: 'db', name: 'contact', honeypot: 'bot-field', branches: null, detected: true };
    expect(formOf(formValues(found))).toEqual({ type: 'db', name: 'contact', honeypot: 'bot-field', branches: null });
  });

  it('tells whether a branch takes the posts of a form', () => {
    expect(isOnBranch(values({ branches: [] }), 'b1')).toBe(true);
    expect(isOnBranch(values({ branches: ['b2'] }), 'b1')).toBe(false);
  });

  it('refuses typed names that are not letters and underscores, or repeated in any case', () => {
    const form = (name: string) => values({ type: 'db', name });
    expect(validateForms({ forms: [form('contact-us')] }, [])).toEqual({ 'forms.0.name': 'Must match ^[A-Za-z_]+$' });
    expect(validateForms({ forms: [form('Contact'), form('contact')] }, [])).toEqual({
      'forms.1.name': 'Form name must be unique',
    });
    expect(validateForms({ forms: [values({ type: 'email', name: 'news', recipient: 'nobody' })] }, [])).toEqual({
      'forms.0.recipient': 'Invalid email',
    });
  });

  it('keeps a name the site has (found in its HTML as a slug) as it is, and only that one', () => {
    const form = (name: string) => values({ type: 'db', name });
    expect(validateForms({ forms: [form('contact-form'), form('newsletter2')] }, ['contact-form'])).toEqual({
      'forms.1.name': 'Must match ^[A-Za-z_]+$',
    });
    expect(validateForms({ forms: [form('contact-form!')] }, ['contact-form!'])).toEqual({
      'forms.0.name': 'Must match ^[A-Za-z0-9_-]+$',
    });
  });
});
