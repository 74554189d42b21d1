import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  it('answers the operator certificate for its exact names and one level under its wildcards, nothing else', () => {
    write(authority.issue(['console.example.com', '*.sites.example.com']));
    const certificates = store();
    expect(certificates.contextFor('console.example.com')).not.toBeNull();
    expect(certificates.contextFor('CONSOLE.example.com.')).not.toBeNull();
    expect(certificates.contextFor('blog.sites.example.com')).not.toBeNull();
    expect(certificates.contextFor('sites.example.com')).toBeNull();
    expect(certificates.contextFor('main.blog.sites.example.com')).toBeNull();
    expect(certificates.contextFor('example.com')).toBeNull();
    expect(certificates.contextFor('')).toBeNull();
  });

  it('refuses to start with a key that is not the certificate’s', () => {
    const one = authority.issue(['a.example.com']);
    const other = authority.issue(['a.example.com']);
    write({ cert: one.cert, key: other.key });
    expect(store).toThrow('is not the key of the certificate');
  });

  it('keeps the pair it serves when the new files are bad, and takes a good new pair', () => {
    const first = authority.issue(['a.example.com']);
    write(first);
    const certificates = store();
    writeFileSync(certFile, 'garbage');
    certificates.reload();
    expect(errors.length).toBeGreaterThan(0);
    expect(certificates.operatorCertificate.serialNumber).toBe(first.serial);
    const next = authority.issue(['a.example.com', 'b.example.com']);
    write(next);
    certificates.reload();
    expect(certificates.operatorCertificate.serialNumber).toBe(next.serial);
    expect(certificates.contextFor('b.example.com')).not.toBeNull();
  });
});
