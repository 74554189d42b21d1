import { CliFailure, exitCodes } from '../failures.ts';
import { ApiError, NetworkError } from './apiErrors.ts';

export interface FailureContext {
  url: URL;
  siteId: string;
  attempts: number;
}

/** A failed call as a message the user can act on, with the exit code of its kind. */
export function explainFailure(error: unknown, { url, siteId, attempts }: FailureContext): CliFailure {
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
  const { status, message, path } = error;
  if (status === 401) {
    return new CliFailure(
      exitCodes.badToken,
      `The server does not accept the token: ${message}. Check --token or WHARF_TOKEN: a site token of the site, or an API token with the release_create scope.`,
    );
  }
  if (status === 403) {
    return new CliFailure(exitCodes.badToken, `The token may not upload to site ${siteId}: ${message}`);
  }
  if (status === 404 && path.startsWith('/api/v1/sites/')) {
    return new CliFailure(exitCodes.unknownSite, `There is no site ${siteId} on ${url.origin}: ${message}`);
  }
  if (status === 404) {
    return new CliFailure(
      exitCodes.refused,
      `The deploy is gone (it expires when left unfinished): ${message}. Upload again.`,
    );
  }
  if (status >= 500) {
    return new CliFailure(exitCodes.unreachable, `The server failed (tried ${attempts} times): ${status} ${message}`);
  }
  return new CliFailure(exitCodes.refused, `The server refused the release: ${message}`);
}
