const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of letters and digits from the browser's cryptographic generator (hook secrets, passwords). */
export function randomString(length: number): string {
  // 248 is the largest multiple of 62 below 256: bytes above it are drawn again, so that no character is likelier.
  const chars: string[] = [];
  while (chars.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && chars.length < length) chars.push(ALPHABET[byte % ALPHABET.length]!);
    }
  }
  return chars.join('');
}
