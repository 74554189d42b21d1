import { createInterface } from 'node:readline';
// The server's own function, so a hash made here is always one the server verifies.
import { hashPassword } from '@wharf/contract/passwords';
import type { CliContext } from '../context.ts';
import { usageError } from '../failures.ts';

async function readPassword(argv: string[], context: CliContext): Promise<string> {
  if (argv.length > 1) throw usageError('wharf hash-password takes one password; quote it if it has spaces');
  if (argv[0]) return argv[0];
  if (context.stdin.isTTY) context.stderr.write('Password: ');
  for await (const line of createInterface({ input: context.stdin as NodeJS.ReadableStream })) return line;
  return '';
}

/** `wharf hash-password`: a scrypt hash for WHARF_USERS (`name:hash`). */
export async function hashPasswordCommand(argv: string[], context: CliContext): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    context.stdout.write(
      'Usage: wharf hash-password [password]\n\nPrints a hash for WHARF_USERS=name:hash. Prefer the password on standard input:\nit stays out of the shell history.  echo "my secret" | wharf hash-password\n',
    );
    return 0;
  }
  const password = await readPassword(argv, context);
  if (!password) throw usageError('No password: give it on standard input, or as the argument');
  context.stdout.write(`${await hashPassword(password)}\n`);
  return 0;
}
