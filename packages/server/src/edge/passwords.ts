import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BASIC_AUTH_USER } from '@wharf/contract';
import { verifyPassword } from '../lib/passwords.ts';
import { FailureLimiter } from '../lib/rateLimit.ts';
import { LruCache } from './lru.ts';
import type { Protection } from './routingTable.ts';

export type Verdict = 'allowed' | 'denied' | 'limited';

/**
 * HTTP Basic with user `user`. A verified credential is remembered under the password's version
 * and a hash of the credential, so the slow hash runs once, not on every request; a new password
 * has a new version and so forgets all of them.
 */
export class PasswordGate {
  private readonly verified = new LruCache<string, true>(100_000);
  private readonly failures = new FailureLimiter(10, 60_000);

  async check(req: IncomingMessage, protection: Protection, clientAddress: string): Promise<Verdict> {
    const header = req.headers.authorization;
    const credential = header?.startsWith('Basic ') ? header.slice(6).trim() : null;
    if (credential) {
      const key = `${protection.version}:${createHash('sha256').update(credential).digest('base64url')}`;
      if (this.verified.get(key)) return 'allowed';
      if (this.failures.isBlocked(clientAddress)) return 'limited';
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      const separator = decoded.indexOf(':');
      const user = decoded.slice(0, separator);
      const password = decoded.slice(separator + 1);
      if (separator > 0 && user === BASIC_AUTH_USER && (await verifyPassword(password, protection.hash))) {
        this.verified.set(key, true);
        return 'allowed';
      }
      this.failures.fail(clientAddress);
    }
    return this.failures.isBlocked(clientAddress) ? 'limited' : 'denied';
  }
}
