/** Reads a JSON column; the column always holds what the code wrote, so a parse failure is a bug. */
export function readJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export const flag = (value: boolean) => (value ? 1 : 0);
export const isSet = (value: number | boolean | null | undefined) => value === 1 || value === true;
