/** What the rest of Wharf uses of the forms module: the edge finds the form a post is for. */
export { findBranchForm } from './queries.ts';
