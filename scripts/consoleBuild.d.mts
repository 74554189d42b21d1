/** Whether packages/web/dist is missing or older than the console's sources. */
export function consoleIsStale(): boolean;
/** Builds the console (a production build) into packages/web/dist, or into `outDir`. */
export function buildConsole(outDir?: string): void;
