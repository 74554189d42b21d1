/** Reading a forge's JSON without trusting its shape: a missing or mistyped field reads as empty. */
export type Json = Record<string, unknown>;
export const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const num = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) ? value : 0);
