/** webpack, Parcel, Next.js: lowercase hex, e.g. `app.3f9a1c2e.js`; a letter tells it from a date or a number. */
const HEX = /^(?=[0-9]*[a-f])[0-9a-f]{8,}$/;
/**
 * Rollup and Vite: base64url, e.g. `index-BX3k9aQz.css`. Both cases and a digit tell it from a word
 * (`Background`) or a size (`1200x630`); `-` and `_` belong to the alphabet too, but only within the
 * 8 characters these bundlers emit by default, so `iPhone-15-Pro` is not taken for one.
 */
const BASE64URL = /^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?:[A-Za-z0-9_-]{8}|[A-Za-z0-9]{9,})$/;
/** esbuild: base32, e.g. `chunk-5XVXZPYO.js`; its digits are 2 to 7, so sizes and dates (with 0 or 1) never pass. */
const BASE32 = /^(?=.*[A-Z])(?=.*[2-7])[A-Z2-7]{8,}$/;

const isContentHash = (token: string) => HEX.test(token) || BASE64URL.test(token) || BASE32.test(token);

/**
 * Whether a file's name carries a content hash, so that its content can never change under that
 * name: a token after a `.` or `-` and before a further `.` (`main.1a2b3c4d.chunk.js`) that looks
 * like a bundler's hash. Sizes, dates, versions and plain numbers do not: a wrong guess would keep
 * a changed file in browsers for a year, while a missed one only costs a revalidation.
 */
export function isFingerprinted(path: string) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (let start = 0; start < name.length; start++) {
    if (name[start] !== '.' && name[start] !== '-') continue;
    const end = name.indexOf('.', start + 1);
    if (end === -1) break;
    if (isContentHash(name.slice(start + 1, end))) return true;
  }
  return false;
}
