import type { CliContext } from './context.ts';
import { CliFailure, exitCodes, usageError } from './failures.ts';
import { mainHelp } from './help.ts';
import { failureJson } from './output/summary.ts';
import { version } from './version.ts';

type Command = (argv: string[], context: CliContext) => Promise<number>;

// Each command loads what it needs when it runs: `wharf --version` does not load the contract.
const commands: Record<string, () => Promise<Command>> = {
  upload: () => import('./commands/upload.ts').then((module) => module.uploadCommand),
  'hash-password': () => import('./commands/hashPassword.ts').then((module) => module.hashPasswordCommand),
  branch: () => import('./commands/siteCommands.ts').then((module) => module.siteCommand('branch')),
  rollback: () => import('./commands/siteCommands.ts').then((module) => module.siteCommand('rollback')),
  publish: () => import('./commands/siteCommands.ts').then((module) => module.siteCommand('publish')),
  releases: () => import('./commands/siteCommands.ts').then((module) => module.siteCommand('releases')),
  status: () => import('./commands/siteCommands.ts').then((module) => module.siteCommand('status')),
  login: () => import('./commands/login.ts').then((module) => module.loginCommand),
  logout: () => import('./commands/logout.ts').then((module) => module.logoutCommand),
  whoami: () => import('./commands/whoami.ts').then((module) => module.whoamiCommand),
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
  return (await command())(rest, context);
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
