import { execFileSync } from 'node:child_process';

export interface ProcessMemory {
  pid: number;
  rssBytes: number;
}

/** Resident memory of a process and of its children (the workers of a clustered Wharf). */
export function processTreeMemory(pid: number): ProcessMemory[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' });
  const rows = out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  return rows
    .filter(([p, parent]) => p === pid || parent === pid)
    .map(([p, , rssKb]) => ({ pid: p, rssBytes: rssKb * 1024 }));
}

export const megabytes = (bytes: number) => bytes / 1024 / 1024;
