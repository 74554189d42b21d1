import type { CommitSignal } from './db/commitSignals.ts';
import type { TrafficEntry } from './edge/traffic/tally.ts';
import type { ProcessFigures } from './metrics/nodeMetrics.ts';

/** What a worker asks its primary, which holds what the node's processes share. */
export type PrimaryQuestion =
  /** Have the node's other workers follow the outbox up to `seq` (this one has). */
  | { kind: 'settle'; seq: number }
  /** The node's counts of sign-in guesses and form posts, when no Redis shares them. */
  | { kind: 'count'; op: 'add'; key: string; windowMs: number; sliding: boolean }
  | { kind: 'count'; op: 'read' | 'clear'; key: string };

/** What the primary and its workers say to each other over the cluster's IPC channel. */
export type ToWorker =
  /** Asks the worker to have followed the outbox up to `seq` (another worker's change is being answered). */
  | { type: 'wharf:catch-up'; id: number; seq: number }
  /** Another process committed outbox events: follow them now rather than at the next poll. */
  | { type: 'wharf:wake'; signal: CommitSignal }
  /** Asks for the worker's figures (a scrape of /metrics). */
  | { type: 'wharf:scrape'; id: number }
  /** The primary's answer to a worker's question (`PrimaryLink.ask`). */
  | { type: 'wharf:answer'; id: number; value: unknown }
  | { type: 'wharf:stop' };
/** A worker's answer to a question that carried an `id`. */
export type Answer =
  | { type: 'wharf:caught-up'; id: number }
  /** null when the worker could not gather them (logged there). */
  | { type: 'wharf:scraped'; id: number; figures: ProcessFigures | null };
export type FromWorker =
  | { type: 'wharf:listening' }
  /** It could not start, and why; it exits next. */
  | { type: 'wharf:failed'; message: string }
  | Answer
  | { type: 'wharf:metrics'; traffic: TrafficEntry[] }
  /** It committed outbox events or jobs: the primary runs the node's share of them and tells the others. */
  | { type: 'wharf:committed'; signal: CommitSignal }
  /** A question for the primary, answered with `wharf:answer` and the same id. */
  | { type: 'wharf:ask'; id: number; question: PrimaryQuestion }
  /** Drained and closed, with its last counts; it exits once this is sent. */
  | { type: 'wharf:stopped'; traffic: TrafficEntry[] };
