/**
 * Exit codes, one per kind of failure a script may want to tell apart. They are part of the
 * CLI's interface: `wharf --help` lists them, and CI jobs branch on them.
 */
export const exitCodes = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  badToken: 3,
  unknownSite: 4,
  badFolder: 5,
  unreachable: 6,
  refused: 7,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** A failure the user can act on: its message is printed as it is, and the CLI exits with its code. */
export class CliFailure extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}

export const usageError = (message: string) => new CliFailure(exitCodes.usage, message);
export const folderError = (message: string) => new CliFailure(exitCodes.badFolder, message);
