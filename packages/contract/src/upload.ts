// @wharf/contract/upload: what a client needs to upload a release, without a schema library. The
// CLI's `wharf upload` starts in CI jobs on every push, and building the contract's zod schemas
// cost it a tenth of a second before it did anything; nothing reachable from here imports zod
// (npm run rules checks it). Types may come from anywhere: they are gone when it runs.
export * from './constants.ts';
export { isWorthCompressingToSend } from './contentType.ts';
export * from './deployManifest.ts';
export * from './errorCodes.ts';
export * from './releaseSource.ts';
export * from './routePath.ts';
export * from './uploadRoutes.ts';
