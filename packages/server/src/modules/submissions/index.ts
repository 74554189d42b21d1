/** What the rest of Wharf uses of the submissions module: the edge stores what visitors post. */
export { type NewSubmission, storeSubmission } from './service.ts';
