/** Runs `work` on every item, at most `limit` at a time; the first failure stops new work and is thrown. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  const queue = items.values();
  const errors: unknown[] = [];
  const lane = async () => {
    for (let step = queue.next(); !step.done && errors.length === 0; step = queue.next()) {
      await work(step.value).catch((error: unknown) => errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (errors.length > 0) throw errors[0];
}
