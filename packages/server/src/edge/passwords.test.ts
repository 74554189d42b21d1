import type { IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../lib/passwords.ts';
import { PasswordGate } from './passwords.ts';

vi.mock('../lib/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../lib/passwords.ts')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

const withCredential = (user: string, password: string) =>
  ({ headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } }) as IncomingMessage;
const client = () => '192.0.2.1';

describe('the password gate of the edge', async () => {
  const protection = { hash: await hashPassword('letmein'), version: 'v1' };

  it('hashes a new credential once for many parallel requests, then answers from memory at once', async () => {
    const gate = new PasswordGate();
    vi.mocked(verifyPassword).mockClear();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => gate.check(withCredential('user', 'letmein'), protection, client)),
    );
    expect(verdicts).toEqual(Array(20).fill('allowed'));
    expect(verifyPassword).toHaveBeenCalledTimes(1);
    expect(gate.check(withCredential('user', 'letmein'), protection, client)).toBe('allowed');
  });

  it('refuses another user name, a wrong password, and the old password under a new version', async () => {
    const gate = new PasswordGate();
    expect(await gate.check(withCredential('admin', 'letmein'), protection, client)).toBe('denied');
    expect(await gate.check(withCredential('user', 'wrong'), protection, client)).toBe('denied');
    expect(await gate.check(withCredential('user', 'letmein'), protection, client)).toBe('allowed');
    const changed = { hash: await hashPassword('changed'), version: 'v2' };
    expect(await gate.check(withCredential('user', 'letmein'), changed, client)).toBe('denied');
  });
});
