import type * as AcmeClient from 'acme-client';
import type { Logger } from 'pino';
import type { AcmeConfig } from '../../config/types.ts';
import type { Db } from '../../db/schema.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { configureAcmeHttp } from './acmeHttp.ts';
import type { HttpChallenges } from './httpChallenges.ts';

/** Publishes DNS-01 answers (`_acme-challenge.{name}` TXT records) on the operator's DNS server. */
export interface TxtPublisher {
  setTxt(fqdn: string, value: string): Promise<void>;
  removeTxt(fqdn: string, value: string): Promise<void>;
  /** Resolves once the server answers the record, so the ACME server finds it when it looks. */
  waitForTxt(fqdn: string, value: string, timeoutMs: number): Promise<void>;
}

export interface Issued {
  chain: string;
  key: string;
  notAfter: Date;
}

const TXT_VISIBLE_TIMEOUT_MS = 30_000;

/**
 * How often a pending challenge or order is asked about again: from 1 s, doubling up to 10 s.
 * acme-client starts at 5 s, which a visitor's first handshake would wait for whenever the CA
 * has not finished at the first look (CAs usually need a second or two).
 */
const POLLING = { backoffMin: 1_000, backoffMax: 10_000, backoffAttempts: 12 };

type Acme = typeof AcmeClient;
let loaded: Promise<Acme> | null = null;
/**
 * acme-client (with axios) takes some 180 ms to load: only a process that orders a certificate
 * pays it, not every worker start (a worker's respawn after a crash waits for it).
 */
const acmeClient = (): Promise<Acme> => {
  loaded ??= import('acme-client');
  return loaded;
};

/**
 * Orders certificates from the ACME directory with `acme-client`: one account per directory,
 * its key made once and kept sealed in the database; a new ECDSA P-256 key for each certificate.
 */
export class AcmeIssuer {
  private client: Promise<AcmeClient.Client> | null = null;

  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    private readonly settings: AcmeConfig,
    /** `WHARF_EXTRA_CA_CERTS`: a private ACME server answers over TLS with a certificate of its own root. */
    private readonly extraCaCerts: readonly string[],
    private readonly challenges: { http: HttpChallenges; dns: TxtPublisher | null },
    private readonly log: Pick<Logger, 'info' | 'warn'>,
  ) {}

  async order(name: string, challenge: 'http-01' | 'dns-01'): Promise<Issued> {
    const acme = await acmeClient();
    const client = await this.account();
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    const [, csr] = await acme.crypto.createCsr({ altNames: [name] }, key);
    const chain = await client.auto({
      csr,
      email: this.settings.email ?? undefined,
      termsOfServiceAgreed: true,
      challengePriority: [challenge],
      // The ACME server checks; a pre-check from here would go through DNS this host may not share.
      skipChallengeVerification: true,
      challengeCreateFn: (authz, ch, keyAuthorization) => this.publish(authz, ch, keyAuthorization),
      challengeRemoveFn: (authz, ch, keyAuthorization) => this.withdraw(authz, ch, keyAuthorization),
    });
    const notAfter = acme.crypto.readCertificateInfo(chain).notAfter;
    this.log.info({ name, notAfter }, 'obtained a certificate over ACME');
    return { chain, key: key.toString(), notAfter };
  }

  private async publish(authz: AcmeClient.Authorization, challenge: { type: string; token: string }, answer: string) {
    if (challenge.type === 'http-01') return this.challenges.http.add(challenge.token, answer);
    const dns = this.dnsPublisher();
    const fqdn = `_acme-challenge.${authz.identifier.value}`;
    await dns.setTxt(fqdn, answer);
    await dns.waitForTxt(fqdn, answer, TXT_VISIBLE_TIMEOUT_MS);
  }

  private async withdraw(authz: AcmeClient.Authorization, challenge: { type: string; token: string }, answer: string) {
    try {
      if (challenge.type === 'http-01') await this.challenges.http.remove(challenge.token);
      else await this.dnsPublisher().removeTxt(`_acme-challenge.${authz.identifier.value}`, answer);
    } catch (error) {
      // A leftover answer does no harm; the certificate is what matters.
      this.log.warn({ err: error, name: authz.identifier.value }, 'could not withdraw an ACME challenge answer');
    }
  }

  private dnsPublisher(): TxtPublisher {
    if (!this.challenges.dns) throw new Error('DNS-01 needs WHARF_ACME_DNS');
    return this.challenges.dns;
  }

  /** The account client, made once per process; the account key is shared by every process through the database. */
  private account(): Promise<AcmeClient.Client> {
    this.client ??= this.openAccount().catch((error) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  private async openAccount(): Promise<AcmeClient.Client> {
    const acme = await acmeClient();
    configureAcmeHttp(acme, this.extraCaCerts);
    const directoryUrl = this.settings.directoryUrl;
    const saved = await this.savedAccount(directoryUrl);
    if (saved?.url) return new acme.Client({ directoryUrl, accountKey: saved.key, accountUrl: saved.url, ...POLLING });
    const accountKey = saved?.key ?? (await this.newAccountKey(directoryUrl));
    const client = new acme.Client({ directoryUrl, accountKey, ...POLLING });
    await this.register(client);
    await this.db
      .updateTable('acme_accounts')
      .set({ account_url: client.getAccountUrl() })
      .where('directory_url', '=', directoryUrl)
      .execute();
    return client;
  }

  /**
   * Finds the key's account at the CA, or creates it. Another process may have registered the
   * key in between (a creation then answers the existing account, which acme-client would try
   * to update with nothing to change, an error to some CAs): asking for the existing one first,
   * and again after a failed creation, covers both orders.
   */
  private async register(client: AcmeClient.Client) {
    const existing = () => client.createAccount({ onlyReturnExisting: true });
    try {
      await existing();
      return;
    } catch {
      // Not registered yet.
    }
    try {
      await client.createAccount({
        termsOfServiceAgreed: true,
        ...(this.settings.email ? { contact: [`mailto:${this.settings.email}`] } : {}),
      });
    } catch (error) {
      await existing().catch(() => {
        throw error;
      });
    }
  }

  /** A new account key, unless another process saved one first: everyone uses the one saved. */
  private async newAccountKey(directoryUrl: string): Promise<string> {
    const acme = await acmeClient();
    const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
    await this.db
      .insertInto('acme_accounts')
      .values({
        directory_url: directoryUrl,
        key_sealed: this.sealer.seal(key),
        account_url: null,
        created_at: new Date().toISOString(),
      })
      .onConflict((c) => c.column('directory_url').doNothing())
      .execute();
    return (await this.savedAccount(directoryUrl))?.key ?? key;
  }

  private async savedAccount(directoryUrl: string): Promise<{ key: string; url: string | null } | null> {
    const row = await this.db
      .selectFrom('acme_accounts')
      .select(['key_sealed', 'account_url'])
      .where('directory_url', '=', directoryUrl)
      .executeTakeFirst();
    return row ? { key: this.sealer.open(row.key_sealed), url: row.account_url } : null;
  }
}
