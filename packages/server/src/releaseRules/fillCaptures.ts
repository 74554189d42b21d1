import type { Captures } from './pathPattern.ts';
import { percentEncode } from './percentEncode.ts';

/**
 * Where a capture goes decides how it is written there. Captures come in normal form
 * (normalPath.ts: escapes of reserved characters kept, text decoded), so each place encodes the
 * text again and escapes what would change its meaning there: `?` and `#` never start a query or
 * a fragment out of a path, `&`, `=` and `+` never split a query parameter, nothing but a host
 * name goes into a host, and a header value holds visible ASCII only.
 */
export type Place = 'host' | 'path' | 'query' | 'fragment' | 'header';

/** What each place takes as it is; everything else is percent-encoded as UTF-8. */
const KEPT: Record<Exclude<Place, 'host'> | 'literalQuery', RegExp> = {
  path: /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/,
  query: /[A-Za-z0-9\-._~!$'()*,;:@/?]/,
  /** The rule's own query text, whose `&`, `=` and `+` are the author's. */
  literalQuery: /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/,
  fragment: /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/,
  header: /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/,
};
const ESCAPE = /^%[0-9A-Fa-f]{2}$/;
/** Labels of letters (any script), digits and hyphens: what a host name is before IDNA. */
const HOST_NAME = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*$/u;

/** A capture written for its place, or null when it cannot go there (a host that is not a host name). */
export function encodeFor(place: Place | 'literalQuery', text: string): string | null {
  if (place === 'host') return HOST_NAME.test(text) ? text : null;
  const kept = KEPT[place];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '%' && ESCAPE.test(text.slice(i, i + 3))) {
      out += text.slice(i, i + 3).toUpperCase();
      i += 2;
    } else if (kept.test(char)) out += char;
    else {
      // A pair of surrogates is one character; a lone one is encoded as the replacement character.
      const code = text.codePointAt(i)!;
      const whole = String.fromCodePoint(code);
      out += percentEncode(whole);
      i += whole.length - 1;
    }
  }
  return out;
}

/** The place of whatever follows `before` in a rule's to. */
function placeAfter(before: string): Place {
  if (before.includes('#')) return 'fragment';
  if (before.includes('?')) return 'query';
  return /^https?:\/\/[^/]*$/i.test(before) ? 'host' : 'path';
}

type Part = string | { name: string; place: Place };

const valuePlaceholder = /:([A-Za-z_]\w*)/g;

/**
 * Splits a template at its placeholders. `literal` writes a piece of the template's own text,
 * given the place it starts in.
 */
function partsOf(
  text: string,
  known: readonly string[],
  placeOf: (before: string) => Place,
  literal: (piece: string, place: Place) => string,
): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const found of text.matchAll(valuePlaceholder)) {
    const name = found[1]!;
    if (!known.includes(name)) continue;
    parts.push(literal(text.slice(last, found.index), placeOf(text.slice(0, last))));
    parts.push({ name, place: placeOf(text.slice(0, found.index)) });
    last = found.index + name.length + 1;
  }
  parts.push(literal(text.slice(last), placeOf(text.slice(0, last))));
  return parts;
}

function fill(parts: readonly Part[], captures: Captures): string | null {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else {
      const encoded = encodeFor(part.place, captures[part.name] ?? '');
      if (encoded === null) return null;
      out += encoded;
    }
  }
  return out;
}

/**
 * A rule's to, split once so that filling it per request is a join. The result is a URL of ASCII
 * characters, or null when a capture cannot go where the rule puts it. An absolute to goes through
 * the URL parser (its host to IDNA, its literal text encoded); a path's literal text is encoded here.
 */
export function compileTarget(to: string, known: readonly string[]): (captures: Captures) => string | null {
  if (!/^https?:\/\//i.test(to)) {
    const parts = partsOf(to, known, placeAfter, encodeLiteral);
    return (captures) => fill(parts, captures);
  }
  const parts = partsOf(to, known, placeAfter, (piece) => piece);
  return (captures) => {
    const filled = fill(parts, captures);
    if (filled === null) return null;
    try {
      return new URL(filled).href;
    } catch {
      return null;
    }
  };
}

/**
 * The rule's own text in a path to: its `?` and `#` keep their meaning, its `&`, `=` and `+` too,
 * and anything a URL may not hold raw (non-ASCII text, `\`, quotes) is encoded.
 */
function encodeLiteral(text: string, from: Place): string {
  let place = from;
  let out = '';
  let run = '';
  const flush = () => {
    out += encodeFor(place === 'query' ? 'literalQuery' : place, run);
    run = '';
  };
  for (const char of text) {
    if ((char === '?' && place === 'path') || (char === '#' && place !== 'fragment')) {
      flush();
      out += char;
      place = char === '#' ? 'fragment' : 'query';
    } else run += char;
  }
  flush();
  return out;
}

/** A `_headers` value with its placeholders (`:name`, `:splat`) filled, as visible ASCII. */
export function compileHeaderValue(value: string, known: readonly string[]): (captures: Captures) => string {
  const parts = partsOf(
    value,
    known,
    () => 'header',
    (piece) => piece,
  );
  if (parts.length === 1) return () => value;
  return (captures) => fill(parts, captures) ?? '';
}
