import { siteAndAccountCalls } from '../api/siteAndAccountCalls.ts';
import type { CliContext } from '../context.ts';
import { CliFailure, exitCodes } from '../failures.ts';
import { accountFailure } from '../login/accountFailure.ts';
import { storedLogin } from '../login/credentials.ts';
import { whoamiHelp } from '../login/help.ts';
import { loggedInServer, parseAccountArguments } from './accountArguments.ts';

/** `wharf whoami`: who the stored login is on the server, asked of the server itself. */
export async function whoamiCommand(argv: string[], context: CliContext): Promise<number> {
  const values = parseAccountArguments(argv);
  if (values.help) {
    context.stdout.write(whoamiHelp);
    return exitCodes.ok;
  }
  const url = loggedInServer(values.url, context.env);
  if (!url)
    throw new CliFailure(exitCodes.badToken, 'You are not logged in to any Wharf server: run wharf login --url URL');
  const login = storedLogin(context.env, url);
  if (!login) {
    throw new CliFailure(
      exitCodes.badToken,
      `You are not logged in to ${url.origin}: run wharf login --url ${url.origin}`,
    );
  }
  const onRetry = (message: string) => void context.stderr.write(`${message}\n`);
  const wharf = siteAndAccountCalls({ url, token: login.token, retry: context.retry, onRetry });
  try {
    const [user, token] = await Promise.all([wharf.getUser(), wharf.getApiToken(login.tokenId)]);
    const overridden = context.env.WHARF_TOKEN
      ? '\nWHARF_TOKEN is set: other commands use it instead of this login.'
      : '';
    context.stdout.write(
      values.json
        ? `${JSON.stringify({ ok: true, url: url.origin, user: user.name, token: { _id: token._id, name: token.name, expiresAt: token.expiresAt } })}\n`
        : `Logged in to ${url.origin} as ${user.name}, with the token "${token.name}" (expires ${token.expiresAt ?? 'never'}).${overridden}\n`,
    );
    return exitCodes.ok;
  } catch (error) {
    throw accountFailure(error, url, context.retry.attempts);
  }
}
