/** What the rest of Wharf uses of the analytics module: the edge counts page views through it. */
export { pageViewMetrics } from './pageViews.ts';
