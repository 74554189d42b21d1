import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './harness.ts';

export const NAMED = '/usr/sbin/named';
const DIG = '/usr/bin/dig';

export interface TsigKey {
  name: string;
  algorithm: 'hmac-sha256' | 'hmac-sha512';
  /** Base64, as named.conf and WHARF_ACME_DNS hold it. */
  secret: string;
}

export interface Bind9 {
  port: number;
  /** The zone the keys may update; its apex and every name under it have an A record 127.0.0.1. */
  zone: string;
  /** One key per algorithm, each allowed to update the zone. */
  keys: { sha256: TsigKey; sha512: TsigKey };
  /** A resolver that asks this server only. */
  resolver: Resolver;
  /** `dig +short` against this server: a second, independent client. */
  dig(name: string, type: string): Promise<string>;
  /** `WHARF_ACME_DNS` for this server and a key (the zone left out: Wharf finds it). */
  setting(key?: TsigKey, zone?: string): string;
  /** What named printed (it logs to stderr in the foreground). */
  log(): string;
  close(): Promise<void>;
}

const newKey = (name: string, algorithm: TsigKey['algorithm']): TsigKey => ({
  name,
  algorithm,
  secret: randomBytes(32).toString('base64'),
});

function configuration(dir: string, port: number, zone: string, keys: TsigKey[]) {
  const keyStatements = keys.map((key) => `key "${key.name}" { algorithm ${key.algorithm}; secret "${key.secret}"; };`);
  const updaters = keys.map((key) => `key "${key.name}";`).join(' ');
  return `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
};
controls { };
${keyStatements.join('\n')}
zone "${zone}" { type primary; file "${zone}.zone"; allow-update { ${updaters} }; };
`;
}

/**
 * The names under the zone answer loopback, so that ACME's HTTP-01 reaches a test's Wharf as well;
 * `records` (zone file lines, such as `www IN CNAME shop.example.`) are added.
 */
const zoneFile = (zone: string, records: string[]) => `$TTL 300
@ IN SOA ns.${zone}. hostmaster.${zone}. 1 3600 600 86400 60
@ IN NS ns.${zone}.
@ IN A 127.0.0.1
* IN A 127.0.0.1
${records.join('\n')}
`;

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Debian's BIND (`named`) in the foreground on a free loopback port with a zone of its own in a
 * temporary directory, taking dynamic updates signed by its keys; fails, saying so, when named is
 * not installed.
 */
export async function startBind9(zone = 'wharf.test', records: string[] = []): Promise<Bind9> {
  const programs = { [NAMED]: 'bind9', [DIG]: 'bind9-dnsutils' };
  for (const [program, debianPackage] of Object.entries(programs)) {
    await access(program).catch(() => {
      throw new Error(
        `${program} is missing: this test updates a real DNS server. Install it: apt-get install ${debianPackage}`,
      );
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-bind9-'));
  const port = await freePort();
  const keys = { sha256: newKey('wharf-sha256', 'hmac-sha256'), sha512: newKey('wharf-sha512', 'hmac-sha512') };
  const conf = path.join(dir, 'named.conf');
  await writeFile(conf, configuration(dir, port, zone, Object.values(keys)));
  await writeFile(path.join(dir, `${zone}.zone`), zoneFile(zone, records));
  // -g: foreground, logging to stderr; -4: IPv4 only; -n 1: one worker thread on a shared machine.
  const child = spawn(NAMED, ['-g', '-4', '-n', '1', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const resolver = new Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  const bind9: Bind9 = {
    port,
    zone,
    keys,
    resolver,
    dig: async (name, type) =>
      (await promisify(execFile)(DIG, ['@127.0.0.1', '-p', String(port), '+short', name, type])).stdout.trim(),
    setting: (key = keys.sha256, inZone) =>
      `rfc2136://${key.name}:${encodeURIComponent(key.secret)}@127.0.0.1:${port}/${inZone ?? ''}?algorithm=${key.algorithm}`,
    log: () => log,
    close,
  };
  for (let attempt = 0; attempt < 100 && child.exitCode === null; attempt++) {
    const soa = await resolver.resolveSoa(zone).catch(() => null);
    if (soa) return bind9;
    await sleep(100);
  }
  await close();
  throw new Error(`named did not start on port ${port}:\n${log}`);
}
