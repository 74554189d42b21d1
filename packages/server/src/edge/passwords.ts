import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { verifyPassword } from '@wharf/contract/passwords';
import type { Counters } from '../lib/counters.ts';
import { GuessThrottle } from '../lib/guessThrottle.ts';
import { LruCache } from '../lib/lru.ts';
import type { Protection } from './routingTable.ts';

export type Verdict = 'allowed' | 'denied' | 'limited';

/** Checks a password against its stored hash (the contract's scrypt form). */
type PasswordCheck = (password: string, hash: string) => Promise<boolean>;

/** Whether a Basic credential names one of the users with its password; a hash runs whatever the user name. */
async function matches(credential: string, users: ReadonlyMap<string, string>, verify: PasswordCheck) {
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  const user = separator === -1 ? '' : decoded.slice(0, separator);
  const hash = users.get(user);
  // An unknown user costs the hash of a known one: the time of a refusal does not tell which names exist.
  const passwordMatches = await verify(decoded.slice(separator + 1), hash ?? users.values().next().value ?? '');
  return hash !== undefined && passwordMatches;
}

/**
 * HTTP Basic, for a site's or a branch's password (user `user`) and for a release's `Basic-Auth`
 * users alike. A verified credential is remembered under the password's version
 * and a hash of the credential, so the slow hash runs once, not on every request; a new password
 * has a new version and so forgets all of them. New credentials wait their turn like sign-ins:
 * failures slow the next tries of their address and of that password.
 */
export class PasswordGate {
  private readonly verified = new LruCache<string, true>(100_000);
  private readonly guesses: GuessThrottle;
  /** Verifications under way: a page's many parallel requests with a new credential share one hash. */
  private readonly verifying = new Map<string, Promise<Verdict>>();
  /** What each open connection was let in with: its next requests with the same header skip even the hash. */
  private readonly connections = new WeakMap<Socket, { header: string; version: string }>();

  /** `verifyHash` is the slow hash's check; a test counts its calls through it. */
  constructor(
    counters: Counters,
    private readonly verifyHash: PasswordCheck = verifyPassword,
  ) {
    this.guesses = new GuessThrottle(counters, 'site-passwords');
  }

  /** Synchronous when the credential was verified before: the common case costs a string comparison. */
  check(req: IncomingMessage, protection: Protection, clientAddress: () => string): Verdict | Promise<Verdict> {
    const header = req.headers.authorization;
    const known = this.connections.get(req.socket);
    if (known && known.header === header && known.version === protection.version) return 'allowed';
    // The scheme is case-insensitive (RFC 9110 §11.1): `basic …` is what some clients send.
    const credential = header && /^basic\s/i.test(header) ? header.slice(6).trim() : null;
    if (!header || !credential) return 'denied';
    const key = `${protection.version}:${createHash('sha256').update(credential).digest('base64url')}`;
    if (this.verified.get(key)) {
      this.connections.set(req.socket, { header, version: protection.version });
      return 'allowed';
    }
    let verification = this.verifying.get(key);
    if (!verification) {
      verification = this.verify(credential, key, protection, clientAddress()).finally(() =>
        this.verifying.delete(key),
      );
      this.verifying.set(key, verification);
    }
    return verification.then((verdict) => {
      if (verdict === 'allowed') this.connections.set(req.socket, { header, version: protection.version });
      return verdict;
    });
  }

  private async verify(credential: string, key: string, protection: Protection, clientAddress: string) {
    // The password's version stands for the user name of a sign-in: guesses at one site's password are slowed wherever they come from.
    const outcome = await this.guesses.attempt(clientAddress, protection.version, () =>
      matches(credential, protection.users, this.verifyHash),
    );
    if (outcome === 'right') this.verified.set(key, true);
    return outcome === 'right' ? 'allowed' : outcome === 'busy' ? 'limited' : 'denied';
  }
}
