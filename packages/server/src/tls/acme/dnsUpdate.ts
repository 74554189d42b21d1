import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import dnsPacket from 'dns-packet';
import type { DnsUpdateSettings } from '../../config/types.ts';
import { exchange, serverName } from './dnsTransport.ts';
import { rcodeName, recordClass, recordType, resourceRecord, txtData, uint16, wireName } from './dnsWire.ts';
import { readTsig, signRequest, tsigErrorNames, verifyResponse } from './tsig.ts';

export { parseDnsUpdateUrl } from './dnsUpdateSettings.ts';

/** What an operator can do about each refusal, said beside the server's code. */
const hints: Record<string, string> = {
  BADSIG: "the key's secret differs from the server's",
  BADKEY: 'the server does not know a key of that name and algorithm',
  BADTIME: 'the clocks of Wharf and the DNS server are more than 5 minutes apart',
  REFUSED: 'the server does not let this key update that name (allow-update or update-policy)',
  NOTAUTH: 'the server is not the primary of the zone',
  NOTZONE: 'the name is not inside the zone',
};

/** A DNS server's refusal (`code`: REFUSED, NOTAUTH, BADSIG, …) or an answer Wharf cannot trust. */
export class DnsUpdateError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const TTL_SECONDS = 60;
const OPCODE_UPDATE = 5 << 11;
const POLL_MS = 250;

/** What the ACME client needs of DNS for a DNS-01 challenge; DnsUpdater does it over RFC 2136. */
export interface DnsChallengeRecords {
  setTxt(fqdn: string, value: string): Promise<void>;
  removeTxt(fqdn: string, value: string): Promise<void>;
  waitForTxt(fqdn: string, value: string, timeoutMs: number): Promise<void>;
}

/**
 * Publishes and withdraws the TXT records of ACME DNS-01 challenges on the operator's DNS server
 * with RFC 2136 updates signed by TSIG, one record at a time: a wildcard and its bare name share
 * `_acme-challenge.{name}` with two values at once.
 */
export class DnsUpdater implements DnsChallengeRecords {
  constructor(
    private readonly settings: DnsUpdateSettings,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Adds the TXT record `fqdn` = `value` (TTL 60 s), beside any others of that name. */
  async setTxt(fqdn: string, value: string) {
    await this.update(fqdn, recordClass.IN, TTL_SECONDS, value);
  }

  /** Deletes that one TXT record (RFC 2136 §2.5.4: class NONE), leaving others of that name; none there is no error. */
  async removeTxt(fqdn: string, value: string) {
    await this.update(fqdn, recordClass.NONE, 0, value);
  }

  /** Asks the server itself until it answers the TXT record, as the ACME server will right after. */
  async waitForTxt(fqdn: string, value: string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.query(fqdn, 'TXT');
      const values = answer.answers.flatMap((record) => (record.type === 'TXT' ? [txtText(record.data)] : []));
      if (values.includes(value)) return;
      if (Date.now() >= deadline) {
        throw new Error(
          `The DNS server ${serverName(this.settings.server)} did not answer the TXT record ${fqdn} within ${timeoutMs} ms`,
        );
      }
      await sleep(POLL_MS);
    }
  }

  private async update(fqdn: string, klass: number, ttl: number, value: string) {
    const zone = this.settings.zone ?? (await this.findZone(fqdn));
    const message = Buffer.concat([
      uint16(randomInt(0x10000)),
      uint16(OPCODE_UPDATE),
      uint16(1), // the zone section: the zone's SOA
      uint16(0), // no prerequisites
      uint16(1), // the one record added or deleted
      uint16(0), // TSIG is added by signRequest
      wireName(zone),
      uint16(recordType.SOA),
      uint16(recordClass.IN),
      resourceRecord(fqdn, recordType.TXT, klass, ttl, txtData(value)),
    ]);
    const { signed, mac } = signRequest(message, this.settings.key);
    const response = await exchange(this.settings.server, signed, this.timeoutMs);
    const what = `the ${klass === recordClass.IN ? 'addition' : 'removal'} of the TXT record ${fqdn} in ${zone}`;
    this.check(response, mac, what);
  }

  /** Throws unless the server answered NOERROR with a TSIG made by the same key. */
  private check(response: Buffer, requestMac: Buffer, what: string) {
    const server = serverName(this.settings.server);
    const rcode = rcodeName(response);
    const tsig = readTsig(response);
    const code = tsig?.error ? (tsigErrorNames[tsig.error] ?? `TSIG error ${tsig.error}`) : rcode;
    const refusal = () =>
      new DnsUpdateError(
        `The DNS server ${server} answered ${code} to ${what}${hints[code] ? `: ${hints[code]}` : ''}`,
        code,
      );
    if (tsig?.error || (!tsig && rcode !== 'NOERROR')) throw refusal();
    if (!tsig)
      throw new DnsUpdateError(`The DNS server ${server} answered ${what} without a TSIG signature`, 'UNSIGNED');
    const distrust = verifyResponse(response, tsig, requestMac, this.settings.key);
    if (distrust)
      throw new DnsUpdateError(`The DNS server ${server}'s answer to ${what} is not trusted: ${distrust}`, 'UNTRUSTED');
    if (rcode !== 'NOERROR') throw refusal();
  }

  /** The zone holding `fqdn`: the owner of the SOA record the server answers for it (RFC 2136 §4). */
  private async findZone(fqdn: string) {
    const answer = await this.query(fqdn, 'SOA');
    const soa = [...answer.answers, ...answer.authorities].find((record) => record.type === 'SOA');
    if (!soa) {
      throw new DnsUpdateError(
        `The DNS server ${serverName(this.settings.server)} holds no zone for ${fqdn} (it answered ${answer.rcode}): name the zone in WHARF_ACME_DNS or check the server`,
        answer.rcode,
      );
    }
    return soa.name;
  }

  private async query(name: string, type: 'TXT' | 'SOA') {
    const question = dnsPacket.encode({ type: 'query', id: randomInt(0x10000), questions: [{ type, name }] });
    const response = await exchange(this.settings.server, question, this.timeoutMs);
    const answer = dnsPacket.decode(response);
    return { rcode: rcodeName(response), answers: answer.answers ?? [], authorities: answer.authorities ?? [] };
  }
}

/** A TXT record's strings as one text, as ACME servers read it. */
function txtText(data: unknown) {
  const strings = Array.isArray(data) ? data : [data];
  return strings.map((item: Buffer | string) => item.toString()).join('');
}
