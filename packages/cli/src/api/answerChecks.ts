// The answers of the upload's calls checked by hand, field by field as the CLI reads them: `wharf
// upload` runs on every push, and a schema library cost it a tenth of a second at each start. A
// server of another version then fails here with the field that differs, not later, obscurely.

/** What is wrong with a value (`at` names it, `release.files[3]`), or null when it is as expected. */
export type Check = (value: unknown, at: string) => string | null;

const typed =
  (type: 'string' | 'number' | 'boolean'): Check =>
  (value, at) =>
    typeof value === type ? null : `${at} is not a ${type}`;

export const isString = typed('string');
export const isNumber = typed('number');
export const isBoolean = typed('boolean');

export const orNull =
  (check: Check): Check =>
  (value, at) =>
    value === null ? null : check(value, at);

export const arrayOf =
  (check: Check): Check =>
  (value, at) => {
    if (!Array.isArray(value)) return `${at} is not a list`;
    for (let index = 0; index < value.length; index++) {
      const problem = check(value[index], `${at}[${index}]`);
      if (problem) return problem;
    }
    return null;
  };

/** An object with at least these fields; others it may have are the server's to add. */
export const objectWith =
  (fields: Record<string, Check>): Check =>
  (value, at) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is not an object`;
    for (const [name, check] of Object.entries(fields)) {
      const problem = check((value as Record<string, unknown>)[name], at ? `${at}.${name}` : name);
      if (problem) return problem;
    }
    return null;
  };

/** A pair of strings, as the base listing gives each file. */
export const stringPair: Check = (value, at) =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string'
    ? null
    : `${at} is not a pair of texts`;

/** Nothing: a 204's empty body. */
export const isNothing: Check = (value, at) => (value === undefined ? null : `${at || 'the answer'} is not empty`);

/** An answer that is not what this CLI reads, and why. */
export class UnexpectedAnswer extends Error {}

/** How an answer is read: checked and typed, or refused with an UnexpectedAnswer. */
export type ReadAnswer<T> = (value: unknown) => T;

/** Reads an answer that passes `check` as a `T`: the check covers every field the CLI reads of it. */
export const checkedAs =
  <T>(check: Check): ReadAnswer<T> =>
  (value) => {
    const problem = check(value, '');
    if (problem) throw new UnexpectedAnswer(problem);
    return value as T;
  };
