/** Text percent-encoded as UTF-8; a lone surrogate (which has no UTF-8) as the replacement character. */
export function percentEncode(text: string) {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
