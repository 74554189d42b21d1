export const PACKAGE_NAME: 'wharf-cli';
/** The CLI bundled into one ES module that plain Node 20+ runs anywhere, reporting `version`. */
export function bundleCli(version: string): Promise<Buffer>;
/** The package.json of `wharf-cli`: its one file is the bundle, run as `wharf`. */
export function packageJsonOf(version: string): Record<string, unknown>;
/** The npm package tarball of `wharf-cli` (files under `package/`, as `npm pack` lays them out). */
export function packCli(version: string, bundle: Buffer): Promise<Buffer>;
/** The tarball's file name, as `npm pack` would name it. */
export function tarballNameOf(version: string): string;
