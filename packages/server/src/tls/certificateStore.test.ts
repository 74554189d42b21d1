import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import { CertificateStore } from './certificateStore.ts';

describe('CertificateStore', () => {
  const authority = testAuthority();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-store-'));
  const certFile = path.join(dir, 'tls.crt');
  const keyFile = path.join(dir, 'tls.key');
  const errors: unknown[] = [];
  const log = { info: () => {}, error: (...args: unknown[]) => void errors.push(args) };
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    authority.remove();
  });

  const write = (pair: { cert: string; key: string }) => {
    writeFileSync(certFile, pair.cert);
    writeFileSync(keyFile, pair.key);
  };
  const store = () => new CertificateStore({ certFile, keyFile, ticketKeys: Buffer.alloc(48, 7), log: log as never });

  it('answers the operator certificate for its exact names and one level under its wildcards, nothing else', async () => {
    write(authority.issue(['console.example.com', '*.sites.example.com']));
    const certificates = store();
    expect(await certificates.contextFor('console.example.com')).not.toBeNull();
    expect(await certificates.contextFor('CONSOLE.example.com.')).not.toBeNull();
    expect(await certificates.contextFor('blog.sites.example.com')).not.toBeNull();
    expect(await certificates.contextFor('sites.example.com')).toBeNull();
    expect(await certificates.contextFor('main.blog.sites.example.com')).toBeNull();
    expect(await certificates.contextFor('example.com')).toBeNull();
    expect(await certificates.contextFor('')).toBeNull();
  });

  it("lists what it serves for /metrics: each of the operator certificate's names, then its sources'", async () => {
    const pair = authority.issue(['console.example.com', '*.sites.example.com']);
    write(pair);
    const certificates = store();
    const notAfter = new X509Certificate(pair.cert).validToDate;
    const manual = { name: 'shop.example.org', source: 'manual' as const, notAfter: new Date('2031-01-01T00:00:00Z') };
    certificates.addSource({ contextFor: () => null, served: async () => [manual] });
    expect(await certificates.served()).toEqual([
      { name: 'console.example.com', source: 'operator', notAfter },
      { name: '*.sites.example.com', source: 'operator', notAfter },
      manual,
    ]);
  });

  it('refuses to start with a key that is not the certificate’s', () => {
    const one = authority.issue(['a.example.com']);
    const other = authority.issue(['a.example.com']);
    write({ cert: one.cert, key: other.key });
    expect(store).toThrow('is not the key of the certificate');
  });

  it('keeps the pair it serves when the new files are bad, and takes a good new pair', async () => {
    const first = authority.issue(['a.example.com']);
    write(first);
    const certificates = store();
    writeFileSync(certFile, 'garbage');
    certificates.reload(certFile, keyFile);
    expect(errors.length).toBeGreaterThan(0);
    expect(certificates.operatorCertificate?.serialNumber).toBe(first.serial);
    const next = authority.issue(['a.example.com', 'b.example.com']);
    write(next);
    certificates.reload(certFile, keyFile);
    expect(certificates.operatorCertificate?.serialNumber).toBe(next.serial);
    expect(await certificates.contextFor('b.example.com')).not.toBeNull();
  });

  it('asks its sources, in order, for the names the operator certificate does not cover', async () => {
    write(authority.issue(['console.example.com']));
    const certificates = store();
    const custom = authority.issue(['www.example.org']);
    const context = tls.createSecureContext({ cert: custom.cert, key: custom.key });
    const asked: string[] = [];
    certificates.addSource({
      contextFor: (name) => {
        asked.push(`first ${name}`);
        return null;
      },
      served: () => [],
    });
    certificates.addSource({
      contextFor: async (name) => {
        asked.push(`second ${name}`);
        return name === 'www.example.org' ? context : null;
      },
      served: () => [],
    });
    expect(await certificates.contextFor('console.example.com')).not.toBeNull();
    expect(await certificates.contextFor('WWW.example.org')).toBe(context);
    expect(await certificates.contextFor('other.example.org')).toBeNull();
    expect(asked).toEqual([
      'first www.example.org',
      'second www.example.org',
      'first other.example.org',
      'second other.example.org',
    ]);
  });
});
