import { createInviteBody, updateOrgBody } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { contractResolver } from './form.ts';

describe('contractResolver', () => {
  it("gives each field the contract's message (spec.md §5)", () => {
    const validate = contractResolver(updateOrgBody);
    expect(validate({ name: '', color: '#ABCDEF' })).toEqual({
      name: 'Input is required',
      color: 'Must match ^#[0-9a-f]{6}$',
    });
    expect(validate({ name: 'n'.repeat(1001), color: '#abcdef' })).toEqual({ name: 'Max length is 1000' });
    expect(validate({ name: 'Acme', color: '#abcdef' })).toEqual({});
  });

  it('keeps the first message of a field', () => {
    const validate = contractResolver(createInviteBody);
    expect(validate({ email: '', admin: false })).toEqual({ email: 'Input is required' });
    expect(validate({ email: 'someone', admin: false })).toEqual({ email: 'Invalid email' });
  });
});
