import http from 'node:http';
import { closedUnderIt, isIdempotent } from '../src/outbound/request.ts';
import { wholeBody } from './wholeAnswer.ts';

export interface SiteAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * A request to a site by host name on the server's port, as a browser resolving `*.localhost`
 * would send it; fetch cannot set the Host header, so this uses node:http.
 */
/**
 * Connections are reused, but dropped after 2 s idle, far from the server's 75 s (KEEP_ALIVE_TIMEOUT_MS).
 * A server may still close one as the next request goes out on it (nginx does after a 412 it
 * answered with `Connection: keep-alive`; see keepAlive.test.ts for the race): a browser sends such
 * a request again, and so does `siteRequest`, once, when its method allows it.
 */
const agent = new http.Agent({ keepAlive: true, timeout: 2_000 });

interface SiteRequestOptions {
  method?: string;
  /** Headers by name, after the Host; or every header line in order (`[name, value, …]`, the Host too). */
  headers?: Record<string, string> | string[];
  body?: string | Buffer;
}

export async function siteRequest(
  port: number,
  host: string,
  path: string,
  options: SiteRequestOptions = {},
): Promise<SiteAnswer> {
  try {
    return await sendOnce(port, host, path, options);
  } catch (error) {
    const reused = (error as { reused?: boolean }).reused === true;
    if (!closedUnderIt(error as NodeJS.ErrnoException, reused) || !isIdempotent(options.method ?? 'GET')) throw error;
    return sendOnce(port, host, path, options);
  }
}

function sendOnce(port: number, host: string, path: string, options: SiteRequestOptions): Promise<SiteAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: Array.isArray(options.headers) ? options.headers : { host, ...options.headers },
        agent,
      },
      (response) => {
        wholeBody(response).then(
          (body) =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') }),
          reject,
        );
      },
    );
    request.on('error', (error) => reject(Object.assign(error, { reused: request.reusedSocket })));
    request.end(options.body);
  });
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
