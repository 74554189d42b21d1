import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TLS_HOST } from './certificate.ts';

export const WRK = '/usr/bin/wrk';

export interface Load {
  threads: number;
  connections: number;
  seconds: number;
  /** Seconds before wrk gives up on an answer and counts a timeout (wrk's default: 2). */
  timeout?: number;
}

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests answered in the run. */
  requests: number;
  /** CPU time of the server's processes per request, when it was measured. */
  cpuUsPerRequest?: number;
  /** Answers outside 2xx and 3xx, plus socket errors: a run with any is not a measurement. */
  failures: number;
  /** What wrk printed. */
  output: string;
}

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(output: string, percentile: string) {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  if (!match) throw new Error(`wrk printed no ${percentile}% latency:\n${output}`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

function parse(output: string): WrkResult {
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!rate) throw new Error(`wrk printed no rate:\n${output}`);
  const requests = /^\s*(\d+) requests in/m.exec(output);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(rate[1]),
    requests: Number(requests?.[1] ?? 0),
    p50Ms: latencyMs(output, '50'),
    p99Ms: latencyMs(output, '99'),
    failures: Number(non2xx?.[1] ?? 0) + errors,
    output,
  };
}

/**
 * One wrk run against 127.0.0.1 with the given headers (Host names the site). Over TLS, wrk
 * connects to `localhost` (which /etc/hosts makes 127.0.0.1): the name it sends as SNI, one the
 * bench's certificate covers; the Host header still names the site.
 */
export async function runWrk(load: Load, port: number, path: string, headers: Record<string, string>, tls = false) {
  const args = [`-t${load.threads}`, `-c${load.connections}`, `-d${load.seconds}s`, '--latency'];
  if (load.timeout) args.push('--timeout', `${load.timeout}s`);
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(tls ? `https://${TLS_HOST}:${port}${path}` : `http://127.0.0.1:${port}${path}`);
  const { stdout } = await promisify(execFile)(WRK, args, { maxBuffer: 1024 * 1024 });
  return parse(stdout);
}
