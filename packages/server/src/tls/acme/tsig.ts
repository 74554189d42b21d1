import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DnsUpdateSettings } from '../../config/types.ts';
import { tsigAlgorithms } from './dnsUpdateSettings.ts';
import {
  lastRecordOffset,
  recordClass,
  recordType,
  resourceRecord,
  skipName,
  uint16,
  uint32,
  uint48,
  wireName,
} from './dnsWire.ts';

/** TSIG as RFC 8945 has it: an HMAC over the message and a few "TSIG variables", in a record appended last. */

type TsigKey = DnsUpdateSettings['key'];

/** How far apart the two clocks may be: the RFC's recommended 300 seconds. */
const FUDGE_SECONDS = 300;

/** The errors a server puts in its TSIG record (its rcode is then NOTAUTH). */
export const tsigErrorNames: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };

interface TsigFields {
  timeSigned: number;
  fudge: number;
  error: number;
  other: Buffer;
}

/** The TSIG of a response, and where its record starts. */
export interface ResponseTsig extends TsigFields {
  offset: number;
  mac: Buffer;
  originalId: number;
}

/** The TSIG variables (§4.3.3): the record's fields that the MAC covers besides the message. */
function variables(key: TsigKey, fields: TsigFields) {
  return Buffer.concat([
    wireName(key.name),
    uint16(recordClass.ANY),
    uint32(0),
    wireName(key.algorithm),
    uint48(fields.timeSigned),
    uint16(fields.fudge),
    uint16(fields.error),
    uint16(fields.other.length),
    fields.other,
  ]);
}

function hmac(key: TsigKey, parts: Buffer[]) {
  const digest = createHmac(tsigAlgorithms[key.algorithm], key.secret);
  for (const part of parts) digest.update(part);
  return digest.digest();
}

/** Signs a request (§5.1); the MAC it returns is what the response's own MAC covers first. */
export function signRequest(message: Buffer, key: TsigKey): { signed: Buffer; mac: Buffer } {
  const fields = { timeSigned: Math.floor(Date.now() / 1000), fudge: FUDGE_SECONDS, error: 0, other: Buffer.alloc(0) };
  const mac = hmac(key, [message, variables(key, fields)]);
  const rdata = Buffer.concat([
    wireName(key.algorithm),
    uint48(fields.timeSigned),
    uint16(fields.fudge),
    uint16(mac.length),
    mac,
    message.subarray(0, 2), // the original ID
    uint16(fields.error),
    uint16(fields.other.length),
    fields.other,
  ]);
  const record = resourceRecord(key.name, recordType.TSIG, recordClass.ANY, 0, rdata);
  const signed = Buffer.concat([message, record]);
  signed.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

/** The response's TSIG record, or null when the response is not signed. */
export function readTsig(response: Buffer): ResponseTsig | null {
  const offset = lastRecordOffset(response);
  if (offset === null || response.readUInt16BE(10) === 0) return null;
  const typeAt = skipName(response, offset);
  if (response.readUInt16BE(typeAt) !== recordType.TSIG) return null;
  let at = skipName(response, typeAt + 10); // past type, class, TTL, length and the algorithm's name
  const timeSigned = response.readUIntBE(at, 6);
  const fudge = response.readUInt16BE(at + 6);
  const macSize = response.readUInt16BE(at + 8);
  at += 10;
  const mac = response.subarray(at, at + macSize);
  at += macSize;
  const otherSize = response.readUInt16BE(at + 4);
  return {
    offset,
    timeSigned,
    fudge,
    mac,
    originalId: response.readUInt16BE(at),
    error: response.readUInt16BE(at + 2),
    other: response.subarray(at + 6, at + 6 + otherSize),
  };
}

/**
 * Checks a response's MAC (§5.3): over the request's MAC, the response as it was before the server
 * added its TSIG (one record fewer, the original ID), and the response's TSIG variables.
 */
export function verifyResponse(response: Buffer, tsig: ResponseTsig, requestMac: Buffer, key: TsigKey): string | null {
  const unsigned = Buffer.from(response.subarray(0, tsig.offset));
  unsigned.writeUInt16BE(tsig.originalId, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  const expected = hmac(key, [uint16(requestMac.length), requestMac, unsigned, variables(key, tsig)]);
  if (expected.length !== tsig.mac.length || !timingSafeEqual(expected, tsig.mac)) {
    return 'its TSIG signature does not match the key';
  }
  if (Math.abs(Date.now() / 1000 - tsig.timeSigned) > tsig.fudge) {
    return 'its TSIG time is further from this clock than the fudge allows';
  }
  return null;
}
