import type { IncomingMessage } from 'node:http';
import { hashPassword, verifyPassword } from '@wharf/contract/passwords';
import { describe, expect, it, vi } from 'vitest';
import { MemoryCounters } from '../lib/counters.ts';
import { PasswordGate } from './passwords.ts';

/** The real check, its calls counted. */
const verifyHash = vi.fn(verifyPassword);

/** A request with a Basic credential, on a connection of its own unless one is given. */
const withCredential = (user: string, password: string, socket = {}) =>
  ({
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    socket,
  }) as IncomingMessage;
const client = () => '192.0.2.1';

describe('the password gate of the edge', async () => {
  const protection = { users: new Map([['user', await hashPassword('letmein')]]), version: 'v1' };

  it('hashes a new credential once for many parallel requests, then answers from memory at once', async () => {
    const gate = new PasswordGate(new MemoryCounters(), verifyHash);
    verifyHash.mockClear();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => gate.check(withCredential('user', 'letmein'), protection, client)),
    );
    expect(verdicts).toEqual(Array(20).fill('allowed'));
    expect(verifyHash).toHaveBeenCalledTimes(1);
    expect(gate.check(withCredential('user', 'letmein'), protection, client)).toBe('allowed');
  });

  it('refuses another user name, a wrong password, and the old password under a new version', async () => {
    const gate = new PasswordGate(new MemoryCounters(), verifyHash);
    expect(await gate.check(withCredential('admin', 'letmein'), protection, client)).toBe('denied');
    expect(await gate.check(withCredential('user', 'wrong'), protection, client)).toBe('denied');
    expect(await gate.check(withCredential('user', 'letmein'), protection, client)).toBe('allowed');
    const changed = { users: new Map([['user', await hashPassword('changed')]]), version: 'v2' };
    expect(await gate.check(withCredential('user', 'letmein'), changed, client)).toBe('denied');
  });

  it('lets the next requests of a connection in without hashing, unless the credential or the password changes', async () => {
    const gate = new PasswordGate(new MemoryCounters(), verifyHash);
    const connection = {};
    expect(await gate.check(withCredential('user', 'letmein', connection), protection, client)).toBe('allowed');
    verifyHash.mockClear();
    expect(gate.check(withCredential('user', 'letmein', connection), protection, client)).toBe('allowed');
    expect(await gate.check(withCredential('user', 'wrong', connection), protection, client)).toBe('denied');
    const changed = { users: new Map([['user', await hashPassword('changed')]]), version: 'v2' };
    expect(await gate.check(withCredential('user', 'letmein', connection), changed, client)).toBe('denied');
    expect(verifyHash).toHaveBeenCalledTimes(2);
  });
});
