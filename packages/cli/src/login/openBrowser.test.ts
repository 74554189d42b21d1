import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInBrowser } from './openBrowser.ts';

describe('opening the page of wharf login', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await mkdtemp(path.join(os.tmpdir(), 'wharf-opener-'));
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  it("runs the desktop's opener with the page", async () => {
    const record = path.join(bin, 'opened');
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > "${record}"\n`, { mode: 0o755 });
    openInBrowser('http://wharf.test/cli-login/abc', { PATH: bin }, 'linux');
    await expect.poll(() => readFile(record, 'utf8').catch(() => '')).toBe('http://wharf.test/cli-login/abc\n');
  });

  it('does nothing, and fails nothing, on a machine without an opener', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'wharf-no-opener-'));
    expect(() => openInBrowser('http://wharf.test/cli-login/abc', { PATH: empty }, 'linux')).not.toThrow();
    expect(() => openInBrowser('http://wharf.test/cli-login/abc', { PATH: empty }, 'darwin')).not.toThrow();
    // The missing command's error arrives after the call: it must find its listener, not crash the process.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await rm(empty, { recursive: true, force: true });
  });
});
