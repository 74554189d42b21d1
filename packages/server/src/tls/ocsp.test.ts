import type { ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BasicOCSPResponse, OCSPResponse } from '@peculiar/asn1-ocsp';
import { AsnConvert } from '@peculiar/asn1-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTlsEnv, testAuthority } from '../../test/certificates.ts';
import { freePort, startTestServer, type TestServer } from '../../test/harness.ts';
import { eventually, stapled } from '../../test/httpsClient.ts';
import { certIdOf, checkResponse, fetchOcsp, OcspStapler, ocspRequestFor, ocspResponderOf } from './ocsp.ts';

/** The certificate status an OCSP response tells, read with the ASN.1 library independently of ocsp.ts. */
function statusIn(der: Buffer) {
  const response = AsnConvert.parse(der, OCSPResponse);
  const basic = AsnConvert.parse(response.responseBytes!.response, BasicOCSPResponse);
  const single = basic.tbsResponseData.responses[0]!;
  return {
    status: single.certStatus.good === null ? 'good' : single.certStatus.revoked ? 'revoked' : 'unknown',
    serial: Buffer.from(single.certID.serialNumber).toString('hex').toUpperCase(),
  };
}

const der = (pem: string) => new X509Certificate(pem).raw;

describe('OCSP stapling with a real responder (openssl ocsp)', () => {
  const authority = testAuthority();
  let ocspUrl: string;
  let responder: ChildProcess;
  let dataDir: string;
  let server: TestServer;
  let httpsPort: number;
  let leaf: ReturnType<typeof authority.issue>;
  let revoked: ReturnType<typeof authority.issue>;
  const warnings: string[] = [];
  /** The reasons of the failures logged. */
  const reasons: string[] = [];
  const log = {
    warn: (fields: { err?: Error }, message: string) => {
      warnings.push(message);
      reasons.push(fields.err?.message ?? '');
    },
  };

  beforeAll(async () => {
    const ocspPort = await freePort();
    ocspUrl = `http://127.0.0.1:${ocspPort}`;
    leaf = authority.issue(['localhost', '*.sites.localhost'], { ocspUrl });
    revoked = authority.issue(['revoked.localhost'], { ocspUrl });
    authority.revoke(revoked.serial);
    responder = await authority.startOcspResponder(ocspPort);

    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-ocsp-'));
    // The chain carries the issuer: OCSP requests name the certificate by its issuer's name and key.
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      env: operatorTlsEnv(dataDir, { chain: leaf.cert + authority.ca, key: leaf.key }, httpsPort),
    });
  });
  afterAll(async () => {
    responder?.kill();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it('reads the responder from the Authority Information Access, and none from a certificate without one', () => {
    expect(ocspResponderOf(der(leaf.cert))).toBe(ocspUrl);
    expect(ocspResponderOf(der(authority.issue(['plain.localhost']).cert))).toBeNull();
  });

  it("staples the responder's 'good' answer for the served certificate", async () => {
    const response = await eventually(
      () => stapled(httpsPort, 'localhost', authority.ca),
      (received) => received !== null,
    );
    expect(statusIn(response as Buffer)).toEqual({ status: 'good', serial: leaf.serial });
    // Cached: the next handshakes get the same response, not a new one each.
    expect((await stapled(httpsPort, 'a.sites.localhost', authority.ca))?.equals(response as Buffer)).toBe(true);
  });

  it('never staples a revoked certificate, nor an expired answer', async () => {
    const stapler = new OcspStapler({ log });
    expect(await stapler.stapleFor(der(revoked.cert), der(authority.ca))).toBeNull();
    expect(warnings.at(-1)).toBe('could not get an OCSP response to staple');
    expect(reasons.at(-1)).toBe('the certificate is revoked');

    const certId = certIdOf(der(leaf.cert), der(authority.ca));
    const answer = await fetchOcsp(ocspUrl, ocspRequestFor(certId));
    const good = checkResponse(answer, certId, der(authority.ca));
    expect(good.validUntil - Date.now()).toBeGreaterThan(5 * 60_000);
    expect(() => checkResponse(answer, certId, der(authority.ca), good.validUntil + 1)).toThrow('expired');
    // An answer about another certificate is not this one's.
    const otherId = certIdOf(der(revoked.cert), der(authority.ca));
    expect(() => checkResponse(answer, otherId, der(authority.ca))).toThrow('another certificate');
  });

  it('keeps a response until its nextUpdate, asks again at half-life, and keeps the cached one when that fails', async () => {
    let clock = Date.now();
    const stapler = new OcspStapler({ log, now: () => clock });
    const first = await stapler.stapleFor(der(leaf.cert), der(authority.ca));
    expect(first && statusIn(first).status).toBe('good');
    // openssl ocsp runs with a nextUpdate 10 minutes on: before the half-life, the cached one without asking.
    clock += 4 * 60_000;
    expect((await stapler.stapleFor(der(leaf.cert), der(authority.ca)))?.equals(first as Buffer)).toBe(true);
    // Past the half-life a new one is asked for (a new thisUpdate, so other bytes).
    clock += 2 * 60_000;
    // openssl's thisUpdate has whole seconds: a second later, the new response differs from the first.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await eventually(
      () => stapler.stapleFor(der(leaf.cert), der(authority.ca)),
      (response) => response !== null && !response.equals(first as Buffer),
    );
    expect(statusIn(renewed as Buffer).status).toBe('good');
    // The responder goes away (this is the last test that uses it): the cached response is still stapled while valid, never after.
    responder.kill();
    await new Promise((resolve) => responder.once('exit', resolve));
    const failures = warnings.length;
    // The clock is 6 minutes ahead of openssl's: the renewed response ends in 4 minutes, its half-life is in 2.
    clock += 3 * 60_000;
    expect((await stapler.stapleFor(der(leaf.cert), der(authority.ca)))?.equals(renewed as Buffer)).toBe(true);
    await eventually(
      async () => warnings.length,
      (count) => count > failures,
    );
    clock += 2 * 60_000;
    expect(await stapler.stapleFor(der(leaf.cert), der(authority.ca))).toBeNull();
  });

  it("staples a delegated responder's answer, never one signed by a key the CA did not certify", async () => {
    for (const signer of ['delegated', 'stranger'] as const) {
      const port = await freePort();
      const certificate = authority.issue([`${signer}.localhost`], { ocspUrl: `http://127.0.0.1:${port}` });
      const own = await authority.startOcspResponder(port, { signer });
      try {
        const response = await new OcspStapler({ log }).stapleFor(der(certificate.cert), der(authority.ca));
        if (signer === 'delegated')
          expect(response && statusIn(response)).toEqual({ status: 'good', serial: certificate.serial });
        else {
          expect(response).toBeNull();
          expect(reasons.at(-1)).toBe('the response is not signed by the issuer or its responder');
        }
      } finally {
        own.kill();
      }
    }
  });

  it('goes on without a staple, within a short bound, when the responder does not answer', async () => {
    const silent = authority.issue(['silent.localhost'], { ocspUrl: `http://127.0.0.1:${await freePort()}` });
    const stapler = new OcspStapler({ log, firstWaitMs: 300 });
    const started = Date.now();
    expect(await stapler.stapleFor(der(silent.cert), der(authority.ca))).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_500);
    // A certificate that names no responder is not asked about at all.
    const plain = authority.issue(['plain.localhost']);
    expect(await stapler.stapleFor(der(plain.cert), der(authority.ca))).toBeNull();
  });
});

describe('no OCSP staple without a responder', () => {
  const authority = testAuthority();
  let dataDir: string;
  let server: TestServer;
  let httpsPort: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-no-ocsp-'));
    const { cert, key } = authority.issue(['localhost']);
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      env: operatorTlsEnv(dataDir, { chain: cert + authority.ca, key }, httpsPort),
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it('completes the handshake of a client asking for one, without a staple', async () => {
    expect(await stapled(httpsPort, 'localhost', authority.ca)).toBeNull();
  });
});
