/** Whether packages/web/dist is missing or older than the console's sources. */
export function consoleIsStale(): boolean;
/** Builds the console into packages/web/dist (a production build). */
export function buildConsole(): void;
