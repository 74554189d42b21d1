import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How many journeys hold a Wharf and a Chromium at once. They run beside the server's suites
 * rather than after them; two browsers at a time keep a 2-core machine responsive enough for
 * their clicks' timeouts, where three journeys and three server files at once did not.
 */
const SLOTS = 2;

/** A slot held longer than any journey takes was left by a process that hangs or died. */
const STALE_MS = 10 * 60_000;

/** One run's slots: Vitest's workers are children of the run's process. */
const folder = path.join(os.tmpdir(), `wharf-journey-slots-${process.ppid}`);

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a slot's holder is gone (or has held it for too long): the slot is free again. */
function abandoned(slot: string) {
  try {
    const [pid, since] = readFileSync(slot, 'utf8').split(' ').map(Number);
    return !isAlive(pid!) || Date.now() - since! > STALE_MS;
  } catch {
    return false;
  }
}

/** Waits for a free slot and takes it; answers the function that gives it back. */
export async function takeJourneySlot(): Promise<() => void> {
  mkdirSync(folder, { recursive: true });
  for (;;) {
    for (let index = 0; index < SLOTS; index++) {
      const slot = path.join(folder, String(index));
      try {
        writeFileSync(slot, `${process.pid} ${Date.now()}`, { flag: 'wx' });
        return () => rmSync(slot, { force: true });
      } catch {
        if (abandoned(slot)) rmSync(slot, { force: true });
      }
    }
    await sleep(250);
  }
}
