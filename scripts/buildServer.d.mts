/** Bundles the server into one ES module for plain Node; resolves to its path. */
export function buildServer(): Promise<string>;
