/** What the rest of Wharf uses of the sites module: the edge answers a domain's ownership challenge. */
export { CHALLENGE_PREFIX } from './ownership.ts';
