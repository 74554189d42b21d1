import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './harness.ts';

const PROGRAM = '/usr/bin/pebble-challtestsrv';

/** A real DNS server on loopback (Debian's pebble-challtestsrv) whose records a test sets. */
export interface DnsPeer {
  /** `127.0.0.1:port`, as `WHARF_DNS_SERVER` takes it. */
  server: string;
  setTxt(name: string, value: string): Promise<void>;
  clearTxt(name: string): Promise<void>;
  /** An A record; names without one answer 127.0.0.1 (the server's default). */
  addA(name: string, addresses: string[]): Promise<void>;
  /** Removes a name's A records: it answers 127.0.0.1 again. */
  clearA(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts pebble-challtestsrv with DNS only, on free loopback ports; fails loudly when it is missing. */
export async function startDnsPeer(): Promise<DnsPeer> {
  const [dnsPort, managementPort] = [await freePort(), await freePort()];
  const child = spawn(
    PROGRAM,
    [
      ...['-dns01', `127.0.0.1:${dnsPort}`, '-management', `127.0.0.1:${managementPort}`],
      ...['-http01', '', '-https01', '', '-tlsalpn01', ''],
      // Names answer 127.0.0.1 and no IPv6 address: the servers under test listen on 127.0.0.1 only.
      ...['-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const failedToStart = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`${PROGRAM} did not start (apt-get install pebble): ${error}`))),
  );
  const management = `http://127.0.0.1:${managementPort}`;
  const call = async (path: string, body: unknown) => {
    const answer = await fetch(`${management}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`pebble-challtestsrv ${path} answered ${answer.status}`);
  };
  const ready = (async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await fetch(`${management}/clear-txt`, { method: 'POST', body: '{"host":"ready."}' }).catch(() => null))
        return;
      await sleep(50);
    }
    throw new Error(`pebble-challtestsrv did not start: ${output}`);
  })();
  await Promise.race([ready, failedToStart]);
  const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);
  return {
    server: `127.0.0.1:${dnsPort}`,
    setTxt: (name, value) => call('/set-txt', { host: fqdn(name), value }),
    clearTxt: (name) => call('/clear-txt', { host: fqdn(name) }),
    addA: (name, addresses) => call('/add-a', { host: fqdn(name), addresses }),
    clearA: (name) => call('/clear-a', { host: fqdn(name) }),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
