import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import { loadConfig } from './load.ts';
import { ConfigError } from './types.ts';

describe('configuration', () => {
  it('runs with nothing set: port 8080, SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.url.origin).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads the private CAs of WHARF_EXTRA_CA_CERTS once, each certificate of the file, and refuses a file without one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-config-'));
    try {
      const [first, second] = [testAuthority(), testAuthority()];
      const file = path.join(dir, 'roots.pem');
      writeFileSync(file, `# our CAs\n${first.ca}\n${second.ca}`);
      expect(loadConfig({ WHARF_EXTRA_CA_CERTS: file }).extraCaCerts).toEqual([first.ca.trim(), second.ca.trim()]);
      expect(loadConfig({}).extraCaCerts).toEqual([]);
      writeFileSync(file, 'not a certificate');
      expect(() => loadConfig({ WHARF_EXTRA_CA_CERTS: file })).toThrow(`${file} holds no PEM certificate`);
      first.remove();
      second.remove();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps files in the data directory unless WHARF_STORAGE names a bucket, and runs every role unless WHARF_ROLE says which', () => {
    const alone = loadConfig({});
    expect(alone.storage).toEqual({ kind: 'folder' });
    expect(alone.roles).toEqual({ api: true, edge: true, worker: true, builder: true });
    expect(alone.redisUrl).toBeNull();
    const node = loadConfig({
      WHARF_STORAGE: 's3://wharf-files/production/',
      WHARF_S3_ENDPOINT: 'http://minio.internal:9000',
      WHARF_ROLE: 'edge, worker',
      REDIS_URL: 'redis://redis.internal:6379',
      WHARF_NODE_NAME: 'node-a',
    });
    expect(node.storage).toEqual({
      kind: 's3',
      bucket: 'wharf-files',
      prefix: 'production',
      endpoint: new URL('http://minio.internal:9000'),
      timeoutMs: 3_000,
    });
    expect(loadConfig({ WHARF_STORAGE: 's3://wharf-files', WHARF_S3_TIMEOUT_SECONDS: '1.5' }).storage).toMatchObject({
      timeoutMs: 1_500,
    });
    expect(node.roles).toEqual({ api: false, edge: true, worker: true, builder: false });
    expect(node).toMatchObject({ redisUrl: 'redis://redis.internal:6379', nodeName: 'node-a' });
  });

  it.each([
    [{ WHARF_STORAGE: 'gs://bucket' }, 'WHARF_STORAGE must be fs or s3://bucket/prefix'],
    [{ WHARF_STORAGE: 's3://B' }, 'WHARF_STORAGE must be fs or s3://bucket/prefix'],
    [{ WHARF_S3_ENDPOINT: 'http://minio:9000' }, 'WHARF_S3_ENDPOINT is set but WHARF_STORAGE is not s3://'],
    [
      { WHARF_STORAGE: 's3://bucket', WHARF_S3_ENDPOINT: 'minio:9000' },
      'WHARF_S3_ENDPOINT must be an http:// or https:// URL',
    ],
    [{ WHARF_S3_TIMEOUT_SECONDS: '0' }, 'WHARF_S3_TIMEOUT_SECONDS must be a number of seconds, more than 0'],
    [{ WHARF_ROLE: 'api,cron' }, 'WHARF_ROLE must be all, or a comma list of api, edge, worker and builder (not cron)'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ WHARF_NODE_NAME: 'node a' }, 'WHARF_NODE_NAME must be 1 to 64 letters'],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('lets a stopping server finish requests for 30 s unless WHARF_SHUTDOWN_GRACE_SECONDS says otherwise', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(30_000);
    expect(loadConfig({ WHARF_SHUTDOWN_GRACE_SECONDS: '2.5' }).shutdownGraceMs).toBe(2_500);
  });

  it('derives the console URL from PORT when WHARF_URL is unset', () => {
    expect(loadConfig({ PORT: '9000' }).url.origin).toBe('http://localhost:9000');
  });

  it('serves plain HTTP only unless WHARF_HTTPS_PORT is set; HSTS on by default with HTTPS, off when asked', () => {
    expect(loadConfig({}).https).toBeNull();
    const tls = { WHARF_HTTPS_PORT: '8443', WHARF_TLS_CERT: '/etc/wharf/tls.crt', WHARF_TLS_KEY: '/etc/wharf/tls.key' };
    expect(loadConfig(tls).https).toEqual({
      port: 8443,
      certFile: '/etc/wharf/tls.crt',
      keyFile: '/etc/wharf/tls.key',
      hsts: 'max-age=31536000',
      acme: null,
    });
    expect(loadConfig({ ...tls, WHARF_HSTS: 'max-age=63072000; includeSubDomains; preload' }).https?.hsts).toBe(
      'max-age=63072000; includeSubDomains; preload',
    );
    expect(loadConfig({ ...tls, WHARF_HSTS: 'off' }).https?.hsts).toBeNull();
  });

  it("obtains certificates over ACME when HTTPS has no certificate of the operator's, or a directory is named", () => {
    expect(loadConfig({ WHARF_HTTPS_PORT: '443' }).https?.acme).toEqual({
      directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory',
      email: null,
      dns: null,
    });
    const both = loadConfig({
      WHARF_HTTPS_PORT: '443',
      WHARF_TLS_CERT: 'c.pem',
      WHARF_TLS_KEY: 'k.pem',
      WHARF_ACME_DIRECTORY: 'https://127.0.0.1:14000/dir',
      WHARF_ACME_EMAIL: 'ops@example.com',
    });
    expect(both.https?.acme).toEqual({
      directoryUrl: 'https://127.0.0.1:14000/dir',
      email: 'ops@example.com',
      dns: null,
    });
    expect(both.https?.certFile).toMatch(/c\.pem$/);
  });

  it.each([
    [
      { WHARF_HTTPS_PORT: '443', WHARF_TLS_KEY: 'k.pem' },
      'WHARF_TLS_CERT must name the certificate file (PEM) of WHARF_TLS_KEY',
    ],
    [{ WHARF_ACME_DIRECTORY: 'https://acme.example/dir' }, 'WHARF_HTTPS_PORT must be set for WHARF_ACME_DIRECTORY'],
    [
      { WHARF_EXTRA_CA_CERTS: '/no/such/roots.pem' },
      'WHARF_EXTRA_CA_CERTS must be a PEM file of CA certificates: names no file: /no/such/roots.pem',
    ],
    [{ WHARF_ACME_CA_FILE: '/etc/wharf/ca.pem' }, 'WHARF_ACME_CA_FILE is now WHARF_EXTRA_CA_CERTS'],
    [
      { WHARF_HTTPS_PORT: '443', WHARF_TLS_CERT: 'c.pem' },
      'WHARF_TLS_KEY must name the key file (PEM) of WHARF_TLS_CERT',
    ],
    [{ WHARF_TLS_CERT: 'c.pem', WHARF_TLS_KEY: 'k.pem' }, 'WHARF_HTTPS_PORT must be set to serve WHARF_TLS_CERT'],
    [{ WHARF_HTTPS_PORT: '8080', WHARF_TLS_CERT: 'c', WHARF_TLS_KEY: 'k' }, 'WHARF_HTTPS_PORT must differ from PORT'],
    [{ WHARF_HTTPS_PORT: 'https' }, 'WHARF_HTTPS_PORT must be a port number'],
    [{ WHARF_HSTS: 'forever' }, 'WHARF_HSTS must be off or a Strict-Transport-Security value'],
    [{ PORT: 'eighty' }, 'PORT must be a port number'],
    [{ WHARF_URL: 'not a url' }, 'WHARF_URL must be a URL such as http://localhost:8080'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)'],
    [{ WHARF_SECRET: 'short' }, 'WHARF_SECRET must be at least 32 characters'],
    [{ WHARF_USERS: 'alice' }, 'WHARF_USERS entry "alice" must be name:hash'],
    [{ WHARF_TRUST_PROXY: 'yes' }, 'WHARF_TRUST_PROXY must be off, a number of proxies, or addresses and CIDRs'],
    [{ WHARF_TRUST_PROXY: '10.0.0.0/33' }, '"10.0.0.0/33" is none of these'],
    [{ WHARF_TRUST_PROXY: '127.0.0.1,,10.0.0.1' }, '"" is none of these'],
    [{ WHARF_SHUTDOWN_GRACE_SECONDS: 'soon' }, 'WHARF_SHUTDOWN_GRACE_SECONDS must be a number of seconds'],
    [{ WHARF_SHUTDOWN_GRACE_SECONDS: '-1' }, 'WHARF_SHUTDOWN_GRACE_SECONDS must be a number of seconds, 0 or more'],
  ])('names the variable and the problem: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
