import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { BASIC_AUTH_USER } from '@wharf/contract';
import { verifyPassword } from '../lib/passwords.ts';
import { FailureLimiter } from '../lib/rateLimit.ts';
import { LruCache } from './lru.ts';
import type { Protection } from './routingTable.ts';

export type Verdict = 'allowed' | 'denied' | 'limited';

async function matches(credential: string, hash: string) {
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0 || decoded.slice(0, separator) !== BASIC_AUTH_USER) return false;
  return verifyPassword(decoded.slice(separator + 1), hash);
}

/**
 * HTTP Basic with user `user`. A verified credential is remembered under the password's version
 * and a hash of the credential, so the slow hash runs once, not on every request; a new password
 * has a new version and so forgets all of them.
 */
export class PasswordGate {
  private readonly verified = new LruCache<string, true>(100_000);
  private readonly failures = new FailureLimiter(10, 60_000);
  /** Verifications under way: a page's many parallel requests with a new credential share one hash. */
  private readonly verifying = new Map<string, Promise<boolean>>();
  /** What each open connection was let in with: its next requests with the same header skip even the hash. */
  private readonly connections = new WeakMap<Socket, { header: string; version: string }>();

  /** Synchronous when the credential was verified before: the common case costs a string comparison. */
  check(req: IncomingMessage, protection: Protection, clientAddress: () => string): Verdict | Promise<Verdict> {
    const header = req.headers.authorization;
    const known = this.connections.get(req.socket);
    if (known && known.header === header && known.version === protection.version) return 'allowed';
    const credential = header?.startsWith('Basic ') ? header.slice(6).trim() : null;
    if (!header || !credential) return this.refusal(clientAddress());
    const key = `${protection.version}:${createHash('sha256').update(credential).digest('base64url')}`;
    if (this.verified.get(key)) {
      this.connections.set(req.socket, { header, version: protection.version });
      return 'allowed';
    }
    return this.verify(credential, key, protection, clientAddress()).then((verdict) => {
      if (verdict === 'allowed') this.connections.set(req.socket, { header, version: protection.version });
      return verdict;
    });
  }

  private async verify(credential: string, key: string, protection: Protection, clientAddress: string) {
    if (this.failures.isBlocked(clientAddress)) return 'limited';
    let verification = this.verifying.get(key);
    if (!verification) {
      verification = matches(credential, protection.hash).finally(() => this.verifying.delete(key));
      this.verifying.set(key, verification);
    }
    if (await verification) {
      this.verified.set(key, true);
      return 'allowed';
    }
    this.failures.fail(clientAddress);
    return this.refusal(clientAddress);
  }

  private refusal(clientAddress: string): Verdict {
    return this.failures.isBlocked(clientAddress) ? 'limited' : 'denied';
  }
}
