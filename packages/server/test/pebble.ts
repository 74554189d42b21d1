import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { testAuthority } from './certificates.ts';
import { type DnsPeer, startDnsPeer } from './dnsPeer.ts';
import { freePort } from './harness.ts';
import { wholeBody } from './wholeAnswer.ts';

const PEBBLE = '/usr/bin/pebble';

export interface Pebble {
  /** The ACME directory URL (over TLS, with `directoryCa`'s certificate). */
  directoryUrl: string;
  /** A PEM file of the root of pebble's own TLS certificate (for `WHARF_EXTRA_CA_CERTS`). */
  directoryCaFile: string;
  /** The root of the certificates pebble issues: clients verify Wharf's chains against it. */
  issuedRoot(): Promise<string>;
  /** The DNS server pebble resolves names with, unless the test brought its own (`dnsServer`). */
  dns: DnsPeer | null;
  stop(): Promise<void>;
}

export interface PebbleOptions {
  /** The port pebble sends HTTP-01 checks to: Wharf's plain HTTP port. */
  httpPort: number;
  /** A DNS server of the test's own (bind9 for DNS-01, a DnsPeer it shares with Wharf); else a DnsPeer of pebble's. */
  dnsServer?: string;
}

function requireBinary(file: string) {
  if (!existsSync(file))
    throw new Error(`${file} is missing: install Debian's pebble package (.ci/run does) to run the ACME tests`);
}

/**
 * Debian's pebble (an ACME server for tests) on loopback ports of its own, resolving names with a
 * DNS server of the test's or with pebble-challtestsrv (answering 127.0.0.1 for every name). Pebble checks HTTP-01 answers on
 * `httpPort` of whatever address a name resolves to.
 */
export async function startPebble(options: PebbleOptions): Promise<Pebble> {
  requireBinary(PEBBLE);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-pebble-'));
  const authority = testAuthority();
  const own = authority.issue(['localhost', '127.0.0.1']);
  writeFileSync(path.join(dir, 'cert.pem'), own.cert);
  writeFileSync(path.join(dir, 'key.pem'), own.key);
  const directoryCaFile = path.join(dir, 'ca.pem');
  writeFileSync(directoryCaFile, authority.ca);
  authority.remove();

  // Without a DNS server of the test's own, pebble-challtestsrv answers 127.0.0.1 for every name.
  const dns = options.dnsServer ? null : await startDnsPeer();
  const dnsServer = options.dnsServer ?? (dns as DnsPeer).server;
  const listen = await freePort();
  const managementPort = await freePort();
  writeFileSync(
    path.join(dir, 'pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: path.join(dir, 'cert.pem'),
        privateKey: path.join(dir, 'key.pem'),
        httpPort: options.httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const pebble = spawn(PEBBLE, ['-config', path.join(dir, 'pebble.json'), '-dnsserver', dnsServer], {
    // No random sleeps before validations, no refused nonces: the same run every time.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  pebble.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  pebble.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ca = authority.ca;
  const get = (port: number, urlPath: string) => fetchText(port, urlPath, ca);
  await waitUntil(
    () => get(listen, '/dir'),
    () => `pebble did not start:\n${output}`,
  );
  return {
    directoryUrl: `https://127.0.0.1:${listen}/dir`,
    directoryCaFile,
    issuedRoot: () => get(managementPort, '/roots/0'),
    dns,
    async stop() {
      pebble.kill('SIGTERM');
      await dns?.close();
      await sleep(50);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function fetchText(port: number, urlPath: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get({ host: '127.0.0.1', port, path: urlPath, ca, agent: false }, (response) => {
      wholeBody(response).then(
        (body) =>
          response.statusCode === 200
            ? resolve(body.toString())
            : reject(new Error(`${urlPath}: ${response.statusCode}`)),
        reject,
      );
    });
    request.on('error', reject);
  });
}

async function waitUntil(work: () => Promise<unknown>, failure: () => string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await work();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(failure());
      await sleep(100);
    }
  }
}

/** Wharf's settings for HTTPS on `httpsPort` with certificates from this pebble, the console and sites under `domain`. */
export function acmeEnv(pebble: Pebble, httpsPort: number, domain = 'wharf.test'): Record<string, string> {
  return {
    WHARF_URL: `https://console.${domain}:${httpsPort}`,
    WHARF_SITES_URL: `https://sites.${domain}:${httpsPort}`,
    WHARF_HTTPS_PORT: String(httpsPort),
    WHARF_ACME_DIRECTORY: pebble.directoryUrl,
    WHARF_EXTRA_CA_CERTS: pebble.directoryCaFile,
  };
}
