/**
 * spec.md §4 'Lists are re-sorted after adding': sites, branches and tokens show newest first, and
 * entries of the same instant by name, descending.
 */
export function newestFirst<T extends { createdAt: string; name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
}
