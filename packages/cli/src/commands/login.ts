import os from 'node:os';
import { type ApiToken, CLI_LOGIN_TTL_MINUTES, type StartedCliLogin } from '@wharf/contract';
import { sleep } from '../api/retry.ts';
import { type SiteAndAccountCalls, siteAndAccountCalls } from '../api/siteAndAccountCalls.ts';
import type { CliContext } from '../context.ts';
import { CliFailure, exitCodes } from '../failures.ts';
import { accountFailure } from '../login/accountFailure.ts';
import { credentialsFile, type StoredLogin, storedLogin, storeLogin } from '../login/credentials.ts';
import { loginHelp } from '../login/help.ts';
import { parseAccountArguments } from './accountArguments.ts';
import { serverUrl } from './connection.ts';

const POLL_EVERY_MS = 2_000;

/** Who asks, as the console shows it to the person approving: `user@host`. */
function machineName(env: Record<string, string | undefined>) {
  let user = env.USER ?? env.USERNAME ?? 'someone';
  try {
    user = os.userInfo().username;
  } catch {
    // A container's user may have no entry in /etc/passwd.
  }
  return `${user}@${os.hostname()}`;
}

function tellWhatToDo(context: CliContext, started: StartedCliLogin, machine: string, opening: boolean) {
  context.stderr.write(
    `Open this page${opening ? ' (opening it in your browser)' : ''} to approve the sign-in of ${machine}:\n\n` +
      `  ${started.url}\n\n` +
      `and check that it shows the code ${started.code}.\n` +
      `Waiting for the approval (up to ${CLI_LOGIN_TTL_MINUTES} minutes; Ctrl+C stops waiting)...\n`,
  );
}

/** Polls until a person approves in the console; a cancel or the expiry ends it with the server's reason. */
async function waitForApproval(wharf: SiteAndAccountCalls, started: StartedCliLogin): Promise<ApiToken> {
  const deadline = Date.now() + CLI_LOGIN_TTL_MINUTES * 60_000;
  while (Date.now() < deadline) {
    const answer = await wharf.claimCliLogin(started._id, started.secret);
    if (answer.state === 'approved') return answer.token;
    await sleep(POLL_EVERY_MS);
  }
  throw new CliFailure(
    exitCodes.refused,
    `Nobody approved the sign-in within ${CLI_LOGIN_TTL_MINUTES} minutes: run wharf login again`,
  );
}

/** A second login to a server replaces the first: its token is deleted, as `wharf logout` would. */
async function revokeEarlier(context: CliContext, url: URL, earlier: StoredLogin | null) {
  if (!earlier) return;
  const wharf = siteAndAccountCalls({ url, token: earlier.token, retry: context.retry, onRetry: () => {} });
  await wharf.deleteApiToken(earlier.tokenId).catch(() => {
    context.stderr.write(`Could not delete the earlier token "${earlier.tokenName}": delete it in the console.\n`);
  });
}

/** `wharf login`: a token of the person at the terminal, approved in the console, stored for later commands. */
export async function loginCommand(argv: string[], context: CliContext): Promise<number> {
  const values = parseAccountArguments(argv);
  if (values.help) {
    context.stdout.write(loginHelp);
    return exitCodes.ok;
  }
  const url = serverUrl(values.url ?? context.env.WHARF_URL);
  const onRetry = (message: string) => void context.stderr.write(`${message}\n`);
  const anonymous = siteAndAccountCalls({ url, token: null, retry: context.retry, onRetry });
  try {
    const machine = machineName(context.env);
    const started = await anonymous.startCliLogin(machine);
    // Only someone at a terminal gets a browser window: never a CI job, whose output is a log.
    const opening = !values['no-browser'] && context.stderr.isTTY === true;
    tellWhatToDo(context, started, machine, opening);
    if (opening) context.openBrowser(started.url);
    const token = await waitForApproval(anonymous, started);
    const user = await siteAndAccountCalls({ url, token: token.value, retry: context.retry, onRetry }).getUser();
    const earlier = storedLogin(context.env, url);
    storeLogin(context.env, url, {
      token: token.value,
      tokenId: token._id,
      tokenName: token.name,
      expiresAt: token.expiresAt,
      user: user.name,
    });
    await revokeEarlier(context, url, earlier);
    const file = credentialsFile(context.env);
    const { _id, name, expiresAt } = token;
    context.stdout.write(
      values.json
        ? `${JSON.stringify({ ok: true, url: url.origin, user: user.name, token: { _id, name, expiresAt }, file })}\n`
        : `Logged in to ${url.origin} as ${user.name}. The token "${name}" (expires ${expiresAt?.slice(0, 10) ?? 'never'}) is stored in ${file}\n`,
    );
    return exitCodes.ok;
  } catch (error) {
    throw accountFailure(error, url, context.retry.attempts);
  }
}
