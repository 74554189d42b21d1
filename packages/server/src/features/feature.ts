import type { Parts, PartsOf } from './parts.ts';

/**
 * A feature of Wharf as the composition registers it: what it owns (routes, background work, a
 * start-up step) and the parts it needs. It receives those parts and no others, so what a feature
 * reads is written where it is declared, and a test can hand it just those.
 */
export interface Feature<N extends keyof Parts = keyof Parts> {
  /** Unique among the features; what `after` names. */
  readonly name: string;
  /** The parts it reads. */
  readonly needs: readonly N[];
  /**
   * The features it relies on (the job a route of its enqueues is sent by one of them, say): they
   * come earlier in the list, or the list is refused at start (`checkOrder`).
   */
  readonly after?: readonly string[];
  /** Binds its routes, on every node: one without the API role refuses them per request. */
  readonly routes?: (parts: PartsOf<NoInfer<N>>) => void;
  /** What it adds on a node of the API role beside its routes (the console's live updates). */
  readonly onApiNodes?: (parts: PartsOf<NoInfer<N>>) => void;
  /** Once every route is bound, on every node, before it serves (the first admin). */
  readonly start?: (parts: PartsOf<NoInfer<N>>) => Promise<void>;
  /** On a node of the worker role: the jobs it sends, the events it consumes, its periodic chores. */
  readonly work?: (parts: PartsOf<NoInfer<N>>) => void;
  /** On a node of the builder role: what runs builds. */
  readonly build?: (parts: PartsOf<NoInfer<N>>) => void;
}

/** Declares a feature; its hooks are type-checked against the parts it names in `needs`. */
export function feature<const N extends keyof Parts>(declared: Feature<N>): Feature<N> {
  return declared;
}

/** Refuses a list whose names repeat, or where a feature comes before one it relies on. */
export function checkOrder(features: readonly Pick<Feature, 'name' | 'after'>[]) {
  const registered = new Set<string>();
  for (const { name, after = [] } of features) {
    if (registered.has(name)) throw new Error(`The feature ${name} is listed twice`);
    const missing = after.filter((other) => !registered.has(other));
    if (missing.length > 0)
      throw new Error(`The feature ${name} must come after ${missing.join(', ')}, which it relies on`);
    registered.add(name);
  }
}

/** The parts a feature named, and no others. */
function partsFor<N extends keyof Parts>(parts: Parts, needs: readonly N[]): PartsOf<N> {
  return Object.fromEntries(needs.map((need) => [need, parts[need]])) as PartsOf<N>;
}

/**
 * What this process does for its node, deciding which hooks run: the API's extras, the node's
 * start-up steps (once per node: not in each cluster worker), and the worker role's background work.
 */
interface NodeRoles {
  api: boolean;
  start: boolean;
  worker: boolean;
  builder: boolean;
}

/**
 * Registers the features in their declared order: every feature's routes, then on an API node the
 * rest of its API, then the start-up steps, then on a worker node the background work, then on a
 * builder node what runs builds.
 */
export async function registerFeatures(features: readonly Feature[], parts: Parts, roles: NodeRoles) {
  checkOrder(features);
  const each = features.map((declared) => ({ declared, parts: partsFor(parts, declared.needs) }));
  for (const { declared, parts } of each) declared.routes?.(parts);
  if (roles.api) for (const { declared, parts } of each) declared.onApiNodes?.(parts);
  if (roles.start) for (const { declared, parts } of each) await declared.start?.(parts);
  if (roles.worker) for (const { declared, parts } of each) declared.work?.(parts);
  if (roles.builder) for (const { declared, parts } of each) declared.build?.(parts);
}
