import type { IncomingHttpHeaders } from 'node:http';

/** What identifies the version of a file the edge is about to send. */
export interface Validators {
  /** The strong ETag of the stored form being sent, quotes included. */
  etag: string;
  /** The release's creation, in milliseconds truncated to whole seconds, as its Last-Modified says. */
  modifiedAt: number;
}

/** Milliseconds of an HTTP-date, truncated to seconds like Last-Modified; null when it is not a date. */
function dateOf(header: string): number | null {
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : Math.floor(time / 1000) * 1000;
}

const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim());

/** RFC 9110 §8.8.3.2: strong comparison, for If-Match and If-Range; a weak tag never matches. */
const matchesStrongly = (header: string, etag: string) => header.trim() === '*' || tagsOf(header).includes(etag);

/** Weak comparison, for If-None-Match: `W/"x"` matches `"x"`. */
const matchesWeakly = (header: string, etag: string) =>
  header.trim() === '*' || tagsOf(header).some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag);

/**
 * RFC 9110 §13.2.2, for a GET or HEAD of a file that exists: If-Match, else If-Unmodified-Since
 * (412 when it fails); then If-None-Match, else If-Modified-Since (304 when the client's copy is
 * current). 200 means send the file (or the part of it Range asks for).
 */
export function preconditionStatus(headers: IncomingHttpHeaders, file: Validators): 200 | 304 | 412 {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!matchesStrongly(ifMatch, file.etag)) return 412;
  } else if (headers['if-unmodified-since'] !== undefined) {
    const date = dateOf(headers['if-unmodified-since']);
    if (date !== null && file.modifiedAt > date) return 412;
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesWeakly(ifNoneMatch, file.etag) ? 304 : 200;
  if (headers['if-modified-since'] !== undefined) {
    const date = dateOf(headers['if-modified-since']);
    if (date !== null && file.modifiedAt <= date) return 304;
  }
  return 200;
}

/**
 * RFC 9110 §13.1.5: a Range is honoured only when If-Range, if sent, names the file being sent: its
 * strong ETag, or exactly its Last-Modified date. Otherwise the whole file goes, so that a download
 * resumed across a deploy is never spliced from two releases.
 */
export function rangeStillApplies(headers: IncomingHttpHeaders, file: Validators) {
  const header = headers['if-range'];
  if (typeof header !== 'string') return true;
  const ifRange = header.trim();
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === file.etag;
  return dateOf(ifRange) === file.modifiedAt;
}
