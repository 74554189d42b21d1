import type { Compilable, CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.ts';
import { prepareOnEachConnection } from './preparedStatements.ts';
import type { Executor } from './schema.ts';

type Value = string | number;

/** A value no caller passes: where it lands among a compiled query's parameters is where an argument goes. */
const slotOf = (index: number) => `\u0000wharf-argument-${index}\u0000`;

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** For each parameter of the query, the argument it takes (-1: a constant of the query itself). */
  argumentAt: number[];
}

function compileWithSlots<Args extends Value[], Row>(
  db: Executor,
  build: (db: Executor, ...args: Args) => Compilable<Row>,
  arity: number,
): Compiled<Row> {
  const slots = Array.from({ length: arity }, (_, index) => slotOf(index));
  // A slot stands in for a number too (a limit, an offset): it is only ever a parameter's value.
  const query = build(db, ...(slots as unknown as Args)).compile();
  if (isPostgres(db)) prepareOnEachConnection(query.sql);
  const argumentAt = query.parameters.map((value) => slots.indexOf(value as string));
  for (let index = 0; index < arity; index++) {
    if (!argumentAt.includes(index)) throw new Error(`Argument ${index} is not a value of the query: ${query.sql}`);
  }
  return { query, argumentAt };
}

/**
 * A query the API runs for nearly every request (the caller's session, the site, the membership, a
 * list's page), built and compiled once for each database and then run with each request's
 * values: building and compiling a Kysely query took more CPU than SQLite took to run it
 * (bench/README, "Where a releases page's time goes"). Only values may vary, never the query's
 * shape. On PostgreSQL each is also prepared once on each connection (preparedStatements.ts).
 * Answers the rows.
 */
export function reusableQuery<Args extends Value[], Row>(build: (db: Executor, ...args: Args) => Compilable<Row>) {
  const compiled = new WeakMap<Executor, Compiled<Row>>();
  return async (db: Executor, ...args: Args): Promise<Row[]> => {
    let entry = compiled.get(db);
    if (!entry) {
      entry = compileWithSlots(db, build, args.length);
      compiled.set(db, entry);
    }
    const { query, argumentAt } = entry;
    const parameters = query.parameters.map((value, index) => {
      const argument = argumentAt[index]!;
      return argument < 0 ? value : args[argument];
    });
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/** `reusableQuery` for a lookup: the first row, or undefined. */
export function reusableLookup<Args extends Value[], Row>(build: (db: Executor, ...args: Args) => Compilable<Row>) {
  const query = reusableQuery(build);
  return async (db: Executor, ...args: Args): Promise<Row | undefined> => (await query(db, ...args))[0];
}
