import { expect } from 'vitest';
import type { Auditor, Failure } from './lighthouse.ts';

/**
 * Audits every route in both color schemes and expects Lighthouse's accessibility score to be 100
 * on each; a failure names the route, the scheme, the audit and the elements, all at once.
 */
export async function expectAccessible(auditor: Auditor, routes: string[]) {
  const below: { route: string; scheme: string; score: number; failures: Failure[] }[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    for (const route of routes) {
      const { score, failures } = await auditor.audit(route, scheme);
      if (score < 100) below.push({ route, scheme, score, failures });
    }
  }
  expect(below).toEqual([]);
}
