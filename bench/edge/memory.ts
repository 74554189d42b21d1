import { execFileSync } from 'node:child_process';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openDb, RoutingTable } from '@wharf/server/testing';

export interface ProcessMemory {
  pid: number;
  rssBytes: number;
}

/** Whether a process runs Node: this bench's own binary, or one named `node` on the PATH. */
const isNode = (program = '') => program === process.execPath || path.basename(program) === 'node';

/** Resident memory of a Node.js process and of its Node.js children (the workers of a clustered Wharf). */
export function processTreeMemory(pid: number): ProcessMemory[] {
  // By the program, not the command name: Node 24 names its main thread `MainThread`, which is
  // what `comm` shows, so counting `node` found no worker and the bench took Wharf for one process.
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([p, parent, , program]) => isNode(program) && (Number(p) === pid || Number(parent) === pid))
    .map(([p, , rssKb]) => ({ pid: Number(p), rssBytes: Number(rssKb) * 1024 }));
}

/** The heap a routing table of every site in Wharf's database holds, measured in this process after full collections. */
export async function routingTableHeap(dataDir: string) {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const db = openDb({ dataDir, databaseUrl: null });
  const collected = () => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const before = collected();
  const table = new RoutingTable();
  await table.loadAll(db);
  const after = collected();
  await db.destroy();
  return { sites: table.size, bytes: after - before };
}

export const megabytes = (bytes: number) => bytes / 1024 / 1024;
