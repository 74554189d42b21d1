import { preloadable } from '../../lib/chunks.ts';

/**
 * The home's sites, with the styles of the two components the first page does not bring (badges,
 * a segmented control), not all of Mantine's (200 KB). Loaded beside the home's first code at a
 * first visit of the home (pages.ts), not with it: the first paint waits for neither.
 */
export const LiveSites = preloadable(() => import('./LiveSites.tsx'), 'LiveSites');
