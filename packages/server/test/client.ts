import { TEST_PASSWORD } from './harness.ts';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** An HTTP client with a cookie jar, as a browser or curl would talk to Wharf. */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly bearer: string | null = null,
  ) {}

  /** The Cookie header this client sends, for other protocols such as the real-time socket. */
  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  withToken(token: string) {
    return new TestClient(this.baseUrl, token);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    return this.send<T>(method, path, body, headers, 'follow');
  }

  /** A GET whose answer is bytes (an archive), as a Buffer. */
  getBytes(path: string): Promise<Answer<Buffer>> {
    return this.send<Buffer>('GET', path, undefined, {}, 'follow', true);
  }

  /** One request without following redirects, as a browser's step through a sign-in flow; `path` may be a whole URL. */
  visit<T = any>(path: string, method = 'GET', body?: unknown): Promise<Answer<T>> {
    return this.send<T>(method, path, body, {}, 'manual');
  }

  private async send<T>(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    redirect: 'follow' | 'manual',
    binary = false,
  ): Promise<Answer<T>> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { ...headers }, redirect };
    const url = /^https?:/.test(path) ? path : this.baseUrl + path;
    // A browser sends Wharf's cookies to Wharf only.
    if (this.cookies.size > 0 && url.startsWith(this.baseUrl)) init.headers.cookie = this.cookieHeader;
    if (this.bearer) init.headers.authorization = `Bearer ${this.bearer}`;
    if (
      body instanceof FormData ||
      body instanceof URLSearchParams ||
      typeof body === 'string' ||
      Buffer.isBuffer(body)
    ) {
      init.body = body as FormData | URLSearchParams | string;
    } else if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    if (url.startsWith(this.baseUrl)) this.keepCookies(response.headers.getSetCookie());
    if (binary)
      return {
        status: response.status,
        body: Buffer.from(await response.arrayBuffer()) as T,
        headers: response.headers,
      };
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Keeps each cookie by name; an emptied one (how a server clears it) is dropped. */
  private keepCookies(setCookies: string[]) {
    for (const setCookie of setCookies) {
      const pair = setCookie.split(';')[0] ?? '';
      const separator = pair.indexOf('=');
      if (separator < 1) continue;
      const [name, value] = [pair.slice(0, separator).trim(), pair.slice(separator + 1).trim()];
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body);
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  async signIn(user: string, password = TEST_PASSWORD) {
    const answer = await this.post('/auth/in-memory', { user, password });
    if (answer.status !== 200)
      throw new Error(`Sign-in of ${user} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return this;
  }
}

export async function signedIn(baseUrl: string, user: string) {
  return new TestClient(baseUrl).signIn(user);
}

/** Throws with the answer when the status is not the one expected; returns the body. */
export function expectStatus<T>(answer: Answer<T>, status: number): T {
  if (answer.status !== status)
    throw new Error(`Expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `?a=1&b=2` from a record of values; empty for none. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  return `?${new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]))}`;
}
