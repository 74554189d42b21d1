import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { tarGz, uploadForm } from './archives.ts';
import type { TestClient } from './client.ts';
import { siteRequest } from './siteClient.ts';
import { AnswerCut } from './wholeAnswer.ts';

/** A node of the installation under load, as its clients reach it. */
export interface LoadedNode {
  name: string;
  port: number;
  /** The owner, signed in on this node (API reads). */
  owner: TestClient;
  /** The site's token on this node (deploys, as CI sends them). */
  deployer: TestClient;
}

/** A release the installation said it made (200): what each of its paths must serve, byte for byte. */
export interface Deployed {
  id: string;
  host: string;
  files: Map<string, Buffer>;
}

/**
 * What one request got: its status (0: no answer, the connection refused or cut before a head),
 * code (ANSWER_CUT: cut after its head), time, and bytes' rightness.
 */
export interface Outcome {
  node: string;
  what: string;
  status: number;
  code: string | null;
  ms: number;
  right: boolean;
}

export interface Seen {
  api: Outcome[];
  sites: Outcome[];
  deploys: Outcome[];
}

/** Longer than anything may take during a fault: a request still open then is a hang. */
const HANG_MS = 30_000;

/** A request's outcome, or status -1 when it hung. */
async function outcomeOf(
  node: string,
  what: string,
  request: () => Promise<{ status: number; code: string | null; right: boolean }>,
): Promise<Outcome> {
  const startedAt = performance.now();
  let deadline: NodeJS.Timeout | undefined;
  const hang = new Promise<{ status: number; code: null; right: false }>((resolve) => {
    deadline = setTimeout(() => resolve({ status: -1, code: null, right: false }), HANG_MS);
  });
  try {
    // No answer: the code says why (the connection's error), for a failure's message. An answer
    // cut after its head keeps its status, with the code ANSWER_CUT.
    const failed = (error: Error & { cause?: { code?: string } }) =>
      error instanceof AnswerCut
        ? { status: error.status, code: error.code, right: false }
        : { status: 0, code: error.cause?.code ?? error.message, right: false };
    const answer = await Promise.race([request().catch(failed), hang]);
    return { node, what, ...answer, ms: performance.now() - startedAt };
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * The traffic of a day's work, all at once against every node: deploys of new releases (each to
 * a branch of its own, with new bytes, a file shared by all, and one over the edge's in-memory
 * size), API reads, and reads of a steady branch's files whose bytes are checked. Runs until
 * stopped; keeps what every request got, and every release the installation said it made.
 */
export class MixedLoad {
  readonly deployed: Deployed[] = [];
  private releases = 0;

  constructor(
    private readonly nodes: LoadedNode[],
    private readonly siteId: string,
    private readonly steady: { host: string; files: Map<string, Buffer> },
  ) {}

  /** The host of the steady branch, whose files every read checks. */
  get steadyHost() {
    return this.steady.host;
  }

  /** Starts the traffic; the function it answers stops it and answers what was seen meanwhile. */
  start(): () => Promise<Seen> {
    let stopped = false;
    const seen: Seen = { api: [], sites: [], deploys: [] };
    const loop = async (work: () => Promise<void>) => {
      while (!stopped) {
        await work();
        await sleep(20);
      }
    };
    const loops = this.nodes.flatMap((node) => [
      loop(async () => {
        seen.deploys.push(await this.deploy(node));
      }),
      loop(async () => {
        seen.api.push(await this.readApi(node));
      }),
      loop(async () => {
        seen.sites.push(...(await this.readSteady(node)));
      }),
    ]);
    return async () => {
      stopped = true;
      await Promise.all(loops);
      return seen;
    };
  }

  /** Uploads a new release to a branch of its own; kept when the answer is 200. */
  async deploy(node: LoadedNode) {
    const number = ++this.releases;
    const files = new Map<string, Buffer>([
      ['/', Buffer.from(`<h1>release ${number}</h1>`)],
      ['/shared.css', Buffer.from('body { margin: 0 }')],
      ['/data.bin', randomBytes(64 * 1024)],
      ['/large.bin', randomBytes(1024 * 1024 + 1)],
    ]);
    const archive = await tarGz([...files].map(([path, content]) => ({ name: nameOf(path), content })));
    const form = uploadForm(archive, `load ${number}`, [`r${number}`]);
    return outcomeOf(node.name, 'deploy', async () => {
      const answer = await node.deployer.request('POST', `/api/v1/sites/${this.siteId}/releases`, form);
      if (answer.status === 200)
        this.deployed.push({ id: answer.body._id, host: new URL(answer.body.deployedBranches[0].url).host, files });
      return { status: answer.status, code: answer.body?.code ?? null, right: answer.status === 200 };
    });
  }

  readApi(node: LoadedNode) {
    return outcomeOf(node.name, 'api', async () => {
      const answer = await node.owner.get(`/api/v1/sites/${this.siteId}`);
      return { status: answer.status, code: answer.body?.code ?? null, right: answer.body?._id === this.siteId };
    });
  }

  readSteady(node: LoadedNode) {
    return Promise.all(
      [...this.steady.files].map(([path, content]) =>
        outcomeOf(node.name, path, async () => {
          const answer = await siteRequest(node.port, this.steady.host, path);
          return { status: answer.status, code: null, right: answer.status === 200 && answer.body.equals(content) };
        }),
      ),
    );
  }
}

/** A path's file name in the archive: the index at the folder's path. */
export const nameOf = (path: string) => (path === '/' ? 'index.html' : path.slice(1));

/** How many outcomes of each kind (`what status code`), to read at a glance in a failure. */
export function tally(outcomes: Outcome[]) {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const kind = `${outcome.node} ${outcome.what} ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}${outcome.status === 200 && !outcome.right ? ' WRONG BYTES' : ''}`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** The figures of a fault, for the record: counts of each kind and the slowest answer. */
export function summary(seen: Seen) {
  const line = (name: string, outcomes: Outcome[]) => {
    const ok = outcomes.filter((outcome) => outcome.status === 200 && outcome.right).length;
    const slowest = Math.round(Math.max(0, ...outcomes.map((outcome) => outcome.ms)));
    return `${name} ${ok}/${outcomes.length} right (slowest ${slowest} ms)`;
  };
  return [line('deploys', seen.deploys), line('API reads', seen.api), line('site reads', seen.sites)].join(', ');
}
