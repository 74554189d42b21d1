import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.ts';
import { SERVER_PACKAGE_DIR } from '../packageDir.ts';
import { CLOSE_MARGIN_MS } from './lifecycle.ts';

const REPOSITORY = path.join(SERVER_PACKAGE_DIR, '../..');
const UNIT_FILE = path.join(REPOSITORY, 'deploy/systemd/wharf@.service');
/** Where the unit expects the installed folder. */
const INSTALLED = '/opt/wharf';

type Unit = Record<string, Record<string, string[]>>;

/** The unit's settings by section and key; a key given several times keeps each value, in order. */
function parseUnit(text: string): Unit {
  const unit: Unit = {};
  let section: Record<string, string[]> = {};
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      const name = header[1]!;
      unit[name] ??= {};
      section = unit[name];
      continue;
    }
    const [key = '', ...value] = line.split('=');
    section[key] = [...(section[key] ?? []), value.join('=')];
  }
  return unit;
}

/** A systemd time span as the unit writes them: `45s`, `5min`, or plain seconds. */
function spanMs(value: string) {
  const [, amount, unit] = /^(\d+)(s|min)?$/.exec(value) ?? [];
  if (!amount) throw new Error(`Not a time span this test reads: ${value}`);
  return Number(amount) * (unit === 'min' ? 60_000 : 1000);
}

const unit = parseUnit(readFileSync(UNIT_FILE, 'utf8'));
const service = unit.Service!;
const one = (key: string) => {
  expect(service[key], key).toHaveLength(1);
  return service[key]![0]!;
};
const environment = Object.fromEntries((service.Environment ?? []).map((entry) => entry.split(/=(.*)/s).slice(0, 2)));

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('the systemd unit (deploy/systemd/wharf@.service)', () => {
  it('restarts Wharf whatever its exit, with a limit on restarts in a row', () => {
    expect(one('Restart')).toBe('always');
    expect(spanMs(one('RestartSec'))).toBeGreaterThan(0);
    expect(Number(unit.Unit!.StartLimitBurst?.[0])).toBeGreaterThan(1);
    expect(spanMs(unit.Unit!.StartLimitIntervalSec?.[0] ?? '')).toBeGreaterThan(0);
  });

  it('stops it with SIGTERM and waits for the shutdown grace and the close that follows it', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    // The primary drains and stops its workers, which ignore SIGTERM; SIGKILL reaches every process.
    expect(one('KillMode')).toBe('mixed');
    const { shutdownGraceMs } = loadConfig({});
    expect(spanMs(one('TimeoutStopSec'))).toBeGreaterThanOrEqual(shutdownGraceMs + CLOSE_MARGIN_MS);
  });

  it('runs the release package unpacked in its folder, as an account of its own', () => {
    // releasePackage.test.ts installs the package and starts it by this very line.
    expect(one('ExecStart')).toBe(`/usr/bin/node --enable-source-maps ${INSTALLED}/dist/main.mjs`);
    // The package's dist/ is written by bundleServer, whose file to run is main.mjs.
    expect(readFileSync(path.join(REPOSITORY, 'scripts/release.mjs'), 'utf8')).toContain(
      "bundleServer(server, path.join(out, 'dist'))",
    );
    expect(readFileSync(path.join(REPOSITORY, 'scripts/bundling.mjs'), 'utf8')).toContain(
      "path.join(outDir, 'main.mjs')",
    );
    expect(service.ExecStartPre).toBeUndefined();
    expect(one('User')).not.toMatch(/^(root|0)?$/);
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE');
  });

  it('keeps everything read-only to Wharf but its data directory, and reads its settings from files', () => {
    expect(one('ProtectSystem')).toBe('strict');
    for (const key of ['ProtectHome', 'PrivateTmp', 'PrivateDevices', 'ProtectKernelTunables', 'RestrictSUIDSGID'])
      expect(one(key), key).toBe('yes');
    const writable = [
      ...(service.StateDirectory ?? []).map((dir) => `/var/lib/${dir}`),
      ...(service.ReadWritePaths ?? []),
    ];
    expect(writable).toContain(environment.WHARF_DATA_DIR);
    expect(one('WorkingDirectory')).toBe(environment.WHARF_DATA_DIR);
    expect(service.EnvironmentFile).toEqual(['/etc/wharf/wharf.env', '-/etc/wharf/%i.env']);
  });

  it.runIf(hasSystemdAnalyze)('is a unit systemd reads without a complaint, and a hardened one', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-unit-'));
    try {
      // An instance of the template, with this machine's Node in place of Debian's.
      const file = path.join(folder, 'wharf@check.service');
      await writeFile(file, readFileSync(UNIT_FILE, 'utf8').replaceAll('/usr/bin/node ', `${process.execPath} `));
      const verify = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
      expect(verify.stderr + verify.stdout).toBe('');
      expect(verify.status).toBe(0);
      const security = execFileSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', file], {
        encoding: 'utf8',
      });
      const exposure = Number(/Overall exposure level for [^:]+: ([\d.]+)/.exec(security)?.[1]);
      expect(exposure).toBeLessThanOrEqual(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
