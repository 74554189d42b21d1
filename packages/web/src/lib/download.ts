import type { Route } from '@wharf/contract';
import { type Args, failureOf, fetchRoute, type Input, urlOf } from './api.ts';

/** The name the server gives a file in `Content-Disposition`, else a fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Fetches a route that answers a file (an export) and saves it through the browser, under the
 * name the server gives; a refusal is thrown as an ApiError, like any call's.
 */
export async function downloadFile<R extends Route>(route: R, ...[input]: Args<R>): Promise<void> {
  const response = await fetchRoute(route, urlOf(route, input as Input | undefined));
  if (!response.ok) throw await failureOf(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition'), 'download');
  link.click();
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
