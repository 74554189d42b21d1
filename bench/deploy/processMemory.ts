import { readdirSync, readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in bytes (`VmRSS`, `VmHWM`), 0 when the process is gone. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1];
    return kilobytes ? Number(kilobytes) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The process and its children: a clustered Wharf serves from worker processes. */
export function processTree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The parent pid is the 4th field of /proc/<pid>/stat, after the command in parentheses.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children];
}

export interface MemoryPeak {
  /** Highest sum of the tree's resident memory seen by sampling. */
  sampledTreeBytes: number;
  /** Highest resident memory each process reached, as the kernel counts it (VmHWM). */
  highWaterBytes: Map<number, number>;
}

/**
 * Samples the resident memory of a process tree until stopped. VmHWM is exact for each process;
 * the sampled sum catches what the tree held at once.
 */
export function watchMemory(pid: number, everyMs = 50) {
  let sampledTreeBytes = 0;
  const tree = new Set<number>([pid]);
  const sample = () => {
    for (const member of processTree(pid)) tree.add(member);
    const sum = [...tree].reduce((total, member) => total + statusBytes(member, 'VmRSS'), 0);
    sampledTreeBytes = Math.max(sampledTreeBytes, sum);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop(): MemoryPeak {
      clearInterval(timer);
      sample();
      return {
        sampledTreeBytes,
        highWaterBytes: new Map([...tree].map((member) => [member, statusBytes(member, 'VmHWM')])),
      };
    },
  };
}

/** CPU time (user and system, in clock ticks) the processes of the tree have used so far. */
function treeTicks(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks;
}

/**
 * Waits until the server's processes are idle (under a fifth of a core over a second: an idle
 * Wharf's timers use a few percent), at most two minutes: a deploy leaves work behind it (the
 * compressed variants of new files, a whole core while they last) that would otherwise take the
 * CPU from the next deploy measured.
 */
export async function untilIdle(pid: number, maxMs = 120_000) {
  const deadline = Date.now() + maxMs;
  const ticksPerSecond = 100;
  for (let before = treeTicks(pid); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = treeTicks(pid);
    if (now - before <= 0.2 * ticksPerSecond) return;
    before = now;
  }
}
