import type { Header } from '@wharf/contract';

/** A header as its editor holds it: every field a text, the path empty for every path. */
export type HeaderValues = Required<Header>;

export const headerValues = (header?: Header): HeaderValues => ({
  path: header?.path ?? '',
  name: header?.name ?? '',
  value: header?.value ?? '',
});

/** The header to send: a header for every path goes without one, as it did before paths existed. */
export const headerOf = ({ path, name, value }: HeaderValues): Header =>
  path ? { path, name, value } : { name, value };
