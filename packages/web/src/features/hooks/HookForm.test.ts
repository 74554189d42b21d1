import { describe, expect, it } from 'vitest';
import { hookBodyOf, hookValues } from './HookForm.tsx';

describe('hook form values', () => {
  it('prefills a new web secret with 32 random characters', () => {
    expect(hookValues().secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(hookValues().secret).not.toBe(hookValues().secret);
  });

  it('sends only the settings of the chosen type', () => {
    const values = { ...hookValues(), name: 'n', events: ['site_added'], to: 'a@b.c', url: 'https://x.example' };
    expect(hookBodyOf({ ...values, type: 'email' })).toEqual({
      type: 'email',
      name: 'n',
      events: ['site_added'],
      config: { to: 'a@b.c' },
    });
    expect(hookBodyOf({ ...values, type: 'slack' })).toMatchObject({ config: { url: 'https://x.example' } });
    expect(hookBodyOf({ ...values, type: 'web' })).toMatchObject({
      config: { url: 'https://x.example', secret: values.secret },
    });
  });
});
