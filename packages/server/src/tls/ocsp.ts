import { createHash, verify, X509Certificate } from 'node:crypto';
import http from 'node:http';
import {
  BasicOCSPResponse,
  CertID,
  id_pkix_ocsp_basic,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  Request,
  TBSRequest,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AuthorityInfoAccessSyntax,
  Certificate,
  id_ad_ocsp,
  id_pe_authorityInfoAccess,
} from '@peculiar/asn1-x509';

/** How long a handshake waits for the first answer of a responder before going on without a staple. */
const FIRST_WAIT_MS = 1_000;
/** How long a request to a responder may take, in the background. */
const FETCH_TIMEOUT_MS = 10_000;
/** After a failed request, how long before the next try (handshakes meanwhile get the cached answer or none). */
const RETRY_AFTER_MS = 60_000;
/** A responder's answer without nextUpdate is stapled this long at most. */
const NO_NEXT_UPDATE_MS = 60 * 60_000;
/** Clocks differ: an answer made a little "in the future" is still taken. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** A larger answer is not an OCSP response. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const SHA1 = '1.3.14.3.2.26';
const ID_KP_OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
/** The signature algorithms a responder uses, as node:crypto names their digests (null: none, e.g. Ed25519). */
const SIGNATURE_DIGESTS: Record<string, string | null> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

/** The `http://` OCSP responder a certificate names in its Authority Information Access, if any. */
export function ocspResponderOf(certificateDer: Buffer): string | null {
  const certificate = AsnConvert.parse(certificateDer, Certificate);
  const extension = certificate.tbsCertificate.extensions?.find((ext) => ext.extnID === id_pe_authorityInfoAccess);
  if (!extension) return null;
  const access = AsnConvert.parse(extension.extnValue, AuthorityInfoAccessSyntax);
  for (const description of access) {
    const uri = description.accessLocation.uniformResourceIdentifier;
    if (description.accessMethod === id_ad_ocsp && uri?.startsWith('http://')) return uri;
  }
  return null;
}

const sha1 = (bytes: ArrayBuffer | Buffer) =>
  createHash('sha1')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest();

/** Which certificate a request asks about (RFC 6960 §4.1.1): SHA-1 of the issuer's name and key, and the serial. */
export function certIdOf(certificateDer: Buffer, issuerDer: Buffer): CertID {
  const certificate = AsnConvert.parse(certificateDer, Certificate);
  const issuer = AsnConvert.parse(issuerDer, Certificate);
  return new CertID({
    hashAlgorithm: new AlgorithmIdentifier({ algorithm: SHA1, parameters: null }),
    issuerNameHash: new OctetString(sha1(AsnConvert.serialize(certificate.tbsCertificate.issuer))),
    issuerKeyHash: new OctetString(sha1(issuer.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey)),
    serialNumber: certificate.tbsCertificate.serialNumber,
  });
}

/** The DER of an unsigned OCSP request for one certificate. */
export function ocspRequestFor(certId: CertID): Buffer {
  const request = new OCSPRequest({ tbsRequest: new TBSRequest({ requestList: [new Request({ reqCert: certId })] }) });
  return Buffer.from(AsnConvert.serialize(request));
}

const sameBytes = (a: ArrayBuffer | OctetString, b: ArrayBuffer | OctetString) =>
  Buffer.from(a instanceof OctetString ? a.buffer : a).equals(Buffer.from(b instanceof OctetString ? b.buffer : b));

/** The certificate that signed a response: the issuer itself, or one it delegated OCSP signing to. */
function signerOf(basic: BasicOCSPResponse, issuer: X509Certificate): X509Certificate {
  for (const embedded of basic.certs ?? []) {
    const candidate = new X509Certificate(Buffer.from(AsnConvert.serialize(embedded)));
    if (candidate.fingerprint256 === issuer.fingerprint256) return issuer;
    // keyUsage is the extended key usage: a delegated responder carries id-kp-OCSPSigning.
    const delegated = candidate.keyUsage?.includes(ID_KP_OCSP_SIGNING);
    if (delegated && candidate.checkIssued(issuer) && candidate.verify(issuer.publicKey)) return candidate;
  }
  return issuer;
}

export interface GoodResponse {
  der: Buffer;
  thisUpdate: number;
  /** Past this time the response is never stapled. */
  validUntil: number;
}

/**
 * Checks a responder's answer for the certificate `certId` names: successful, signed by the issuer
 * (or its delegated responder), status `good`, current. Throws the reason otherwise: a client that
 * checks the staple would refuse a bad one, so a bad one is never served.
 */
export function checkResponse(der: Buffer, certId: CertID, issuerDer: Buffer, now = Date.now()): GoodResponse {
  const response = AsnConvert.parse(der, OCSPResponse);
  if (response.responseStatus !== OCSPResponseStatus.successful)
    throw new Error(`the responder answered ${OCSPResponseStatus[response.responseStatus] ?? response.responseStatus}`);
  if (response.responseBytes?.responseType !== id_pkix_ocsp_basic) throw new Error('not a basic OCSP response');
  const basic = AsnConvert.parse(response.responseBytes.response, BasicOCSPResponse);
  const issuer = new X509Certificate(issuerDer);
  const digest = SIGNATURE_DIGESTS[basic.signatureAlgorithm.algorithm];
  if (digest === undefined) throw new Error(`unknown signature algorithm ${basic.signatureAlgorithm.algorithm}`);
  const signed = Buffer.from(basic.tbsResponseDataRaw ?? AsnConvert.serialize(basic.tbsResponseData));
  if (!verify(digest, signed, signerOf(basic, issuer).publicKey, Buffer.from(basic.signature)))
    throw new Error('the response is not signed by the issuer or its responder');
  const single = basic.tbsResponseData.responses.find(
    (candidate) =>
      sameBytes(candidate.certID.serialNumber, certId.serialNumber) &&
      sameBytes(candidate.certID.issuerKeyHash, certId.issuerKeyHash),
  );
  if (!single) throw new Error('the response is about another certificate');
  if (single.certStatus.good === undefined)
    throw new Error(`the certificate is ${single.certStatus.revoked ? 'revoked' : 'unknown to the responder'}`);
  const thisUpdate = single.thisUpdate.getTime();
  const validUntil = single.nextUpdate?.getTime() ?? thisUpdate + NO_NEXT_UPDATE_MS;
  if (thisUpdate > now + CLOCK_SKEW_MS) throw new Error('the response is from the future');
  if (validUntil <= now) throw new Error('the response is expired');
  return { der, thisUpdate, validUntil };
}

/**
 * POSTs an OCSP request to a responder (RFC 6960 appendix A.1) and answers the body of its 200.
 * The responder is named by a certificate the operator installed (theirs or their CA's), never by
 * a visitor or a site, so this goes out directly rather than through the sites' outbound guard.
 */
export function fetchOcsp(url: string, request: Buffer, timeoutMs = FETCH_TIMEOUT_MS): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request', 'content-length': request.length },
        timeout: timeoutMs,
      },
      (answer) => {
        if (answer.statusCode !== 200) {
          answer.resume();
          reject(new Error(`the responder answered HTTP ${answer.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) outgoing.destroy(new Error('the responder answered too much'));
          else chunks.push(chunk);
        });
        answer.on('end', () => resolve(Buffer.concat(chunks)));
        answer.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from the responder within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(request);
  });
}

interface Entry {
  responder: string | null;
  response: GoodResponse | null;
  /** When to ask the responder again: half-way to the end of the cached response, or after a failure. */
  refreshAt: number;
  fetching: Promise<void> | null;
}

export interface OcspStaplerOptions {
  /** Where failures go (a pino logger in Wharf). */
  log: { warn(fields: object, message: string): void };
  /** How long a handshake waits for a first answer (default 1 s). */
  firstWaitMs?: number;
  /** The clock (tests move it on to the half-life and past the end of a response). */
  now?: () => number;
}

/**
 * OCSP stapling: for the server's `OCSPRequest` event, answers the cached response of the
 * certificate served, when it names a responder. Responses are fetched in the background and kept
 * until their nextUpdate, asked again at half-life; a handshake waits for a first one only briefly.
 * Only a current `good` response is stapled; failures are logged and the cached one kept while valid.
 */
export class OcspStapler {
  private readonly entries = new Map<string, Entry>();
  private readonly firstWaitMs: number;
  private readonly now: () => number;

  constructor(private readonly options: OcspStaplerOptions) {
    this.firstWaitMs = options.firstWaitMs ?? FIRST_WAIT_MS;
    this.now = options.now ?? Date.now;
  }

  /** The `OCSPRequest` listener of a TLS server. */
  readonly onOcspRequest = (
    certificate: Buffer,
    issuer: Buffer | null,
    done: (error: Error | null, response?: Buffer) => void,
  ) => {
    this.stapleFor(certificate, issuer).then(
      (response) => (response ? done(null, response) : done(null)),
      () => done(null),
    );
  };

  /** The response to staple for a certificate, or null (no responder, no issuer, none good yet). */
  async stapleFor(certificate: Buffer, issuer: Buffer | null): Promise<Buffer | null> {
    if (!certificate || !issuer) return null;
    const key = createHash('sha256').update(certificate).digest('hex');
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { responder: this.responderOf(certificate), response: null, refreshAt: 0, fetching: null };
      this.entries.set(key, entry);
    }
    if (!entry.responder) return null;
    const now = this.now();
    if (now >= entry.refreshAt && !entry.fetching) entry.fetching = this.refresh(entry, certificate, issuer);
    if (!this.current(entry, now) && entry.fetching) await Promise.race([entry.fetching, delay(this.firstWaitMs)]);
    return this.current(entry, this.now())?.der ?? null;
  }

  private current(entry: Entry, now: number) {
    return entry.response && entry.response.validUntil > now ? entry.response : null;
  }

  private responderOf(certificate: Buffer) {
    try {
      return ocspResponderOf(certificate);
    } catch {
      return null;
    }
  }

  private async refresh(entry: Entry, certificate: Buffer, issuer: Buffer) {
    const responder = entry.responder as string;
    try {
      const certId = certIdOf(certificate, issuer);
      const answer = await fetchOcsp(responder, ocspRequestFor(certId));
      const now = this.now();
      const response = checkResponse(answer, certId, issuer, now);
      entry.response = response;
      entry.refreshAt = now + Math.max((response.validUntil - now) / 2, 0);
    } catch (error) {
      entry.refreshAt = this.now() + RETRY_AFTER_MS;
      this.options.log.warn(
        { err: error, responder, stapling: this.current(entry, this.now()) ? 'the previous response' : 'none' },
        'could not get an OCSP response to staple',
      );
    } finally {
      entry.fetching = null;
    }
  }
}

function delay(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}
