import { siteAndAccountCalls } from '../api/siteAndAccountCalls.ts';
import type { CliContext } from '../context.ts';
import { exitCodes } from '../failures.ts';
import { accountFailure, isTokenGone } from '../login/accountFailure.ts';
import { forgetLogin, storedLogin } from '../login/credentials.ts';
import { logoutHelp } from '../login/help.ts';
import { loggedInServer, parseAccountArguments } from './accountArguments.ts';

/**
 * `wharf logout`: deletes the login's token on the server, then forgets it here. A server that
 * cannot be reached keeps the login, so that logging out again can still revoke the token.
 */
export async function logoutCommand(argv: string[], context: CliContext): Promise<number> {
  const values = parseAccountArguments(argv);
  if (values.help) {
    context.stdout.write(logoutHelp);
    return exitCodes.ok;
  }
  const url = loggedInServer(values.url, context.env);
  const login = url && storedLogin(context.env, url);
  const say = (text: string, json: object) =>
    context.stdout.write(values.json ? `${JSON.stringify({ ok: true, url: url?.origin, ...json })}\n` : `${text}\n`);
  if (!url || !login) {
    say(`You were not logged in${url ? ` to ${url.origin}` : ''}: nothing to do.`, { loggedOut: false });
    return exitCodes.ok;
  }
  const onRetry = (message: string) => void context.stderr.write(`${message}\n`);
  const wharf = siteAndAccountCalls({ url, token: login.token, retry: context.retry, onRetry });
  let revoked = true;
  try {
    await wharf.deleteApiToken(login.tokenId);
  } catch (error) {
    if (!isTokenGone(error)) throw accountFailure(error, url, context.retry.attempts);
    revoked = false;
  }
  forgetLogin(context.env, url);
  say(
    revoked
      ? `Logged out of ${url.origin}: the token "${login.tokenName}" is deleted.`
      : `Logged out of ${url.origin}: the server no longer accepted the token "${login.tokenName}".`,
    { loggedOut: true, tokenDeleted: revoked },
  );
  return exitCodes.ok;
}
