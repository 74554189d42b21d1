import { hashPassword, verifyPassword, verifyPasswordOfAnyone } from '@wharf/contract/passwords';
import { describe, expect, it } from 'vitest';

describe('password hashes', () => {
  it('are scrypt at 2^15 by default, salted, and match only their password', async () => {
    const [first, second] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horse!', first)).toBe(false);
  });

  it('carry the cost they were made with, which checking them uses', async () => {
    const cheap = await hashPassword('password', 2 ** 10);
    expect(cheap.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    expect(await verifyPassword('password', cheap)).toBe(true);
    expect(await verifyPassword('Password', cheap)).toBe(false);
    expect(await verifyPasswordOfAnyone('password', undefined)).toBe(false);
  });
});
