import type { ErrorCode } from '@wharf/contract';
import { CliFailure, exitCodes } from '../failures.ts';
import { ApiError, NetworkError } from './apiErrors.ts';

export interface FailureContext {
  url: URL;
  siteId: string;
  attempts: number;
  /** The token came from `wharf login`, not from --token or WHARF_TOKEN. */
  fromLogin?: boolean;
}

const TOKEN_REFUSED: ErrorCode[] = [
  'SIGN_IN_REQUIRED',
  'AUTHORIZATION_MALFORMED',
  'TOKEN_INVALID',
  'TOKEN_NOT_ACTIVE',
  'TOKEN_EXPIRED',
];
const TOKEN_NOT_ALLOWED: ErrorCode[] = [
  'TOKEN_SCOPE_MISSING',
  'TOKEN_KIND_REFUSED',
  'TOKEN_OTHER_SITE',
  'ROLE_INSUFFICIENT',
];

/** A failed call as a message the user can act on, with the exit code of its kind, decided by the server's code. */
export function explainFailure(error: unknown, { url, siteId, attempts, fromLogin }: FailureContext): CliFailure {
  if (error instanceof CliFailure) return error;
  if (error instanceof NetworkError) {
    return new CliFailure(
      exitCodes.unreachable,
      `Cannot reach ${url.origin} (tried ${attempts} times): ${error.message}`,
    );
  }
  if (!(error instanceof ApiError)) {
    return new CliFailure(exitCodes.unexpected, `Unexpected error: ${(error as Error)?.stack ?? error}`);
  }
  const { status, code, message } = error;
  if ((code && TOKEN_REFUSED.includes(code)) || (!code && status === 401)) {
    if (fromLogin) {
      return new CliFailure(
        exitCodes.badToken,
        `The server does not accept the token of wharf login: ${message}. Run wharf login --url ${url.origin} again.`,
      );
    }
    return new CliFailure(
      exitCodes.badToken,
      `The server does not accept the token: ${message}. Check --token or WHARF_TOKEN: a site token of the site, or an API token with the release_create scope.`,
    );
  }
  if ((code && TOKEN_NOT_ALLOWED.includes(code)) || (!code && status === 403)) {
    return new CliFailure(exitCodes.badToken, `The token may not upload to site ${siteId}: ${message}`);
  }
  if (code === 'SITE_NOT_FOUND') {
    return new CliFailure(exitCodes.unknownSite, `There is no site ${siteId} on ${url.origin}: ${message}`);
  }
  if (code === 'DEPLOY_NOT_FOUND' || code === 'DEPLOY_EXPIRED') {
    return new CliFailure(
      exitCodes.refused,
      `The deploy is gone (it expires when left unfinished): ${message}. Upload again.`,
    );
  }
  if (code === 'DISK_FULL') return new CliFailure(exitCodes.refused, `The server cannot store the release: ${message}`);
  if (status >= 500) {
    return new CliFailure(exitCodes.unreachable, `The server failed (tried ${attempts} times): ${status} ${message}`);
  }
  return new CliFailure(exitCodes.refused, `The server refused the release: ${message}`);
}
