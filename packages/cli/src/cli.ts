import { hashPasswordCommand } from './commands/hashPassword.ts';
import { uploadCommand } from './commands/upload.ts';
import type { CliContext } from './context.ts';
import { CliFailure, exitCodes, usageError } from './failures.ts';
import { mainHelp } from './help.ts';
import { failureJson } from './output/summary.ts';
import { version } from './version.ts';

const commands: Record<string, (argv: string[], context: CliContext) => Promise<number>> = {
  upload: uploadCommand,
  'hash-password': hashPasswordCommand,
};

async function dispatch(argv: string[], context: CliContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    context.stdout.write(mainHelp);
    return first === undefined ? exitCodes.usage : exitCodes.ok;
  }
  if (first === '--version' || first === '-v') {
    context.stdout.write(`${version}\n`);
    return exitCodes.ok;
  }
  const command = commands[first];
  if (!command) throw usageError(`Unknown command ${first}. Commands: ${Object.keys(commands).join(', ')}`);
  return command(rest, context);
}

/** Runs one invocation of `wharf` and answers its exit code; every failure is printed here. */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  try {
    return await dispatch(argv, context);
  } catch (error) {
    const failure =
      error instanceof CliFailure
        ? error
        : new CliFailure(exitCodes.unexpected, `Unexpected error: ${(error as Error)?.stack ?? error}`);
    if (argv.includes('--json')) {
      context.stdout.write(failureJson(failure.exitCode, failure.message));
    } else {
      const hint = failure.exitCode === exitCodes.usage ? '\nRun wharf --help for the usage.' : '';
      context.stderr.write(`wharf: ${failure.message}${hint}\n`);
    }
    return failure.exitCode;
  }
}
