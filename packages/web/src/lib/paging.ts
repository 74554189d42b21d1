/**
 * The next page to ask for of a paged list ({ items, count }), or none once every item is loaded:
 * the `getNextPageParam` of the console's infinite queries.
 */
export function nextPage<Page extends { items: unknown[]; count: number }>(last: Page, pages: Page[]) {
  const loaded = pages.reduce((total, page) => total + page.items.length, 0);
  return loaded < last.count ? pages.length : undefined;
}
