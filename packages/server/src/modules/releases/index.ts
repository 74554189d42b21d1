/** What the rest of Wharf uses of the release wing: a backup holds collection off while it copies. */
export { holdingCollection } from './collect/holds.ts';
