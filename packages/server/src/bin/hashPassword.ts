import { createInterface } from 'node:readline';
import { hashPassword } from '@wharf/contract/passwords';

/**
 * Prints the hash of a password for WHARF_USERS (`name:hash`). The password comes from the first
 * argument or, better (it stays out of the shell history), from standard input.
 */
async function readPassword(): Promise<string> {
  const argument = process.argv[2];
  if (argument) return argument;
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) return line;
  return '';
}

const password = await readPassword();
if (!password) {
  console.error('Usage: npm run hash-password -- <password>   (or the password on standard input)');
  process.exit(2);
}
console.log(await hashPassword(password));
