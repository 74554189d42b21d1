import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A process and its direct children (nginx's or a cluster's workers). */
function processTree(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([p, parent]) => p === pid || parent === pid)
    .map(([p]) => p!);
}

/** User and system CPU time a process has used, in milliseconds; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * The CPU time a server's processes used between two readings: what a request costs the server
 * itself, which the machine's other load changes far less than the rate.
 */
export function cpuMeter(pid: number) {
  const pids = processTree(pid);
  const total = () => pids.reduce((sum, p) => sum + cpuMs(p), 0);
  const start = total();
  return { elapsedMs: () => total() - start };
}
