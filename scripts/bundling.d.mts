/** The latest modification time among these files and everything in these folders (0: none exist). */
export function newestChange(...entries: string[]): number;
/** Whether `built` is missing or older than any of `sources`. */
export function isStale(built: string, sources: string[]): boolean;
/** Bundles `entry` into the ES module `outfile` for plain Node; resolves to `outfile`. */
export function bundle(entry: string, outfile: string, options?: { sourcemap?: boolean }): Promise<string>;
/** Writes a file aside and renames it into place, so a process starting meanwhile never loads half of one. */
export function writeWhole(file: string, contents: Uint8Array | string): void;
