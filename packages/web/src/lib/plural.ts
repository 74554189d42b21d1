/** '1 scope', '2 scopes', '0 scopes': a count with its noun in the matching number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
