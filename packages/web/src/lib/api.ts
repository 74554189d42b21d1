import { queryOptions } from '@tanstack/react-query';
import type {
  ApiErrorBody,
  ErrorCode,
  Route,
  RouteBody,
  RouteParams,
  RouteQuery,
  RouteResponse,
} from '@wharf/contract';
import { routePath } from '@wharf/contract';

/** A failed call, carrying the server's `{ statusCode, code, error, message, details }`; decide by `code`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
    /** The server's stable error code; null when it cannot be reached or something else answered. */
    readonly code: ErrorCode | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// A part of the call is required when its schema has required keys, optional when it has none,
// and absent when the route takes none (no body).
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : {} extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type CallInput<R extends Route> = Part<'params', RouteParams<R>> &
  Part<'query', RouteQuery<R>> &
  Part<'body', RouteBody<R>>;

export type Input = { params?: object; query?: object; body?: unknown };

/** The URL of a route with its parameters filled and its query appended. */
export function urlOf(route: Route, input: Input = {}): string {
  const path = routePath(route.path, (input.params ?? {}) as Record<string, string>);
  const entries = Object.entries(input.query ?? {}).filter(([, value]) => value !== undefined && value !== '');
  if (entries.length === 0) return path;
  return `${path}?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)]))}`;
}

/** Sends a call of a route; a server out of reach is an ApiError of status 0. */
export async function fetchRoute(route: Route, url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'same-origin', ...init, method: route.method.toUpperCase() });
  } catch {
    throw new ApiError(0, 'The server cannot be reached');
  }
}

function parsed(response: Response, text: string): unknown {
  return text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

/** The ApiError of an answer that is not a success, from its `{ code, message, details }`. */
export async function failureOf(response: Response): Promise<ApiError> {
  const body = parsed(response, await response.text());
  const failure = (typeof body === 'object' && body !== null ? body : {}) as Partial<ApiErrorBody>;
  return new ApiError(
    response.status,
    failure.message ?? (response.statusText || `HTTP ${response.status}`),
    failure.details,
    failure.code ?? null,
  );
}

async function send<R extends Route>(route: R, url: string, init: RequestInit): Promise<RouteResponse<R>> {
  const response = await fetchRoute(route, url, init);
  if (!response.ok) throw await failureOf(response);
  const text = await response.text();
  return (text ? parsed(response, text) : undefined) as RouteResponse<R>;
}

export type Args<R extends Route> = {} extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

function callWith<R extends Route>(route: R, input: Input = {}): Promise<RouteResponse<R>> {
  const init: RequestInit =
    input.body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(input.body) };
  return send(route, urlOf(route, input), init);
}

/** Calls one route of the contract: the only way the console talks to the server. */
export function call<R extends Route>(route: R, ...[input]: Args<R>): Promise<RouteResponse<R>> {
  return callWith(route, input as Input | undefined);
}

/** Uploads a file to a multipart route (logos), in the field `file`. */
export function upload<R extends Route>(route: R, params: RouteParams<R>, file: File): Promise<RouteResponse<R>> {
  const form = new FormData();
  form.append('file', file);
  return send(route, urlOf(route, { params: params as object }), { body: form });
}

/** The cache key of a route's answers: invalidating `[route.path]` refreshes every call of it. */
export function keyOf(route: Route, input: Input = {}) {
  return [route.path, input.params ?? {}, input.query ?? {}] as const;
}

/** TanStack Query options for a GET route. */
export function apiQuery<R extends Route>(route: R, ...[input]: Args<R>) {
  return queryOptions({
    queryKey: keyOf(route, input as Input | undefined),
    queryFn: () => callWith(route, input as Input | undefined),
  });
}
