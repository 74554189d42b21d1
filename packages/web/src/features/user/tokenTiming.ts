import type { ApiToken } from '@wharf/contract';
import { isPast, relativeTime } from '../../lib/time.ts';

export type TokenTiming =
  | { state: 'pending'; label: string }
  | { state: 'active'; label: 'active'; expires: string | null }
  | { state: 'expired'; label: 'expired'; expires: string };

/** spec.md §4 'API token timing': 'Activates {relative}' before, then 'active' and 'expires {relative}'. */
export function tokenTiming(token: Pick<ApiToken, 'activatesAt' | 'expiresAt'>, now: number = Date.now()): TokenTiming {
  if (!isPast(token.activatesAt, now))
    return { state: 'pending', label: `Activates ${relativeTime(token.activatesAt, now)}` };
  if (token.expiresAt && isPast(token.expiresAt, now))
    return { state: 'expired', label: 'expired', expires: `expired ${relativeTime(token.expiresAt, now)}` };
  return {
    state: 'active',
    label: 'active',
    expires: token.expiresAt ? `expires ${relativeTime(token.expiresAt, now)}` : null,
  };
}
