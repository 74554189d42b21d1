import type { ErrorCode } from '@wharf/contract';
import { ApiError, NetworkError } from '../api/apiErrors.ts';
import { CliFailure, exitCodes } from '../failures.ts';

const TOKEN_REFUSED: (ErrorCode | null)[] = ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_NOT_ACTIVE'];

/** Whether the server no longer takes the token at all (deleted, expired): the login is void. */
export const isTokenGone = (error: unknown) => error instanceof ApiError && TOKEN_REFUSED.includes(error.code);

/** A failed call of `login`, `logout` or `whoami` as a message to act on, with its exit code. */
export function accountFailure(error: unknown, url: URL, attempts: number): CliFailure {
  if (error instanceof CliFailure) return error;
  if (error instanceof NetworkError)
    return new CliFailure(
      exitCodes.unreachable,
      `Cannot reach ${url.origin} (tried ${attempts} times): ${error.message}`,
    );
  if (isTokenGone(error))
    return new CliFailure(
      exitCodes.badToken,
      `The login to ${url.origin} is no longer valid: ${(error as ApiError).message}. Run wharf login --url ${url.origin} again.`,
    );
  if (error instanceof ApiError && error.code?.startsWith('CLI_LOGIN_'))
    return new CliFailure(exitCodes.refused, `Not logged in: ${error.message}`);
  if (error instanceof ApiError && error.status >= 500)
    return new CliFailure(exitCodes.unreachable, `The server failed (tried ${attempts} times): ${error.message}`);
  if (error instanceof ApiError) return new CliFailure(exitCodes.refused, `The server refused: ${error.message}`);
  return new CliFailure(exitCodes.unexpected, `Unexpected error: ${(error as Error)?.stack ?? error}`);
}
