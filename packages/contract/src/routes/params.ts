import { z } from 'zod';
import { id } from '../validation.ts';

/** The path parameters of a route, each an id. */
export function ids<K extends string>(...keys: K[]) {
  return z.object(Object.fromEntries(keys.map((key) => [key, id])) as Record<K, typeof id>);
}
