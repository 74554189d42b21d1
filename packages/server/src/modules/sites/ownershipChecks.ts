import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config/types.ts';
import type { OutboundGuard } from '../../outbound/guard.ts';
import { sendOutbound } from '../../outbound/request.ts';
import { CHALLENGE_PREFIX, txtRecordName } from './ownership.ts';

const CHALLENGE_TIMEOUT_MS = 5_000;
/** More than a token: an answer longer than this is not Wharf's. */
const CHALLENGE_BODY_BYTES = 256;

/** What a check needs: where to ask DNS, and how to reach the domain. */
export interface OwnershipCheckParts {
  config: Pick<Config, 'dnsServer' | 'ownershipHttpPort'>;
  outbound: OutboundGuard;
}

/** Null when the check proved ownership; else why not, in words the owner can act on. */
type CheckResult = string | null;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** The system's resolver, or `WHARF_DNS_SERVER` when the operator (or a test) names one. */
export function resolverFor(dnsServer: string | null) {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (dnsServer) resolver.setServers([dnsServer]);
  return resolver;
}

/** A TXT record `_wharf.{domain}` whose value is the domain's token. */
export async function checkTxtRecord(
  parts: OwnershipCheckParts,
  domainName: string,
  token: string,
): Promise<CheckResult> {
  const recordName = txtRecordName(domainName);
  let records: string[][];
  try {
    records = await resolverFor(parts.config.dnsServer).resolveTxt(recordName);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENODATA' || code === 'ENOTFOUND') return `there is no TXT record ${recordName}`;
    return `DNS did not answer for ${recordName} (${code})`;
  }
  // A long TXT value arrives in chunks of 255 bytes, which make one value together.
  const values = records.map((chunks) => chunks.join(''));
  if (values.includes(token)) return null;
  if (values.length === 0) return `there is no TXT record ${recordName}`;
  return `the TXT record ${recordName} is ${values.map((value) => `"${value.slice(0, 80)}"`).join(', ')}, not the token`;
}

/**
 * Where the challenge is fetched: the domain's own name through the outbound guard's lookup (the
 * system's resolver), or the address `WHARF_DNS_SERVER` gives for it.
 */
async function challengeAddress(parts: OwnershipCheckParts, domainName: string): Promise<string> {
  if (!parts.config.dnsServer) return domainName;
  const addresses = await resolverFor(parts.config.dnsServer).resolve4(domainName);
  return addresses[0]!;
}

function fetchChallenge(outbound: OutboundGuard, url: URL, host: string): Promise<{ status: number; body: string }> {
  const signal = AbortSignal.timeout(CHALLENGE_TIMEOUT_MS);
  return sendOutbound(outbound, { url, method: 'GET', headers: { host }, signal }).then(
    (res) =>
      new Promise((resolve, reject) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > CHALLENGE_BODY_BYTES) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      }),
  );
}

/**
 * `http://{domain}/.well-known/wharf-ownership/{token}` answers the token: the domain points at
 * this Wharf, whose edge answers the challenge of a saved domain not verified yet. Redirects are
 * not followed: the domain itself must answer.
 */
export async function checkHttpChallenge(
  parts: OwnershipCheckParts,
  domainName: string,
  token: string,
): Promise<CheckResult> {
  const port = parts.config.ownershipHttpPort;
  const shown = `http://${domainName}${port === 80 ? '' : `:${port}`}${CHALLENGE_PREFIX}${token}`;
  try {
    const address = await challengeAddress(parts, domainName);
    const url = new URL(`http://${address}:${port}${CHALLENGE_PREFIX}${token}`);
    const answer = await fetchChallenge(parts.outbound, url, port === 80 ? domainName : `${domainName}:${port}`);
    if (answer.status !== 200) return `${shown} answered ${answer.status}`;
    if (answer.body.trim() !== token) return `${shown} did not answer the token`;
    return null;
  } catch (error) {
    return `${shown} could not be fetched (${codeOf(error) === 'UPSTREAM_NOT_ALLOWED' ? (error as Error).message : codeOf(error)})`;
  }
}
