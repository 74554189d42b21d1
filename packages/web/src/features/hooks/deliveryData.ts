import type { HookDelivery } from '@wharf/contract';
import { describeEvent } from './eventLabels.ts';

/** Delivered; failed with another attempt to come; failed for good. */
export type DeliveryStatus = 'delivered' | 'retrying' | 'failed';

export const deliveryStatuses: Record<DeliveryStatus, { label: string; color: string }> = {
  delivered: { label: 'Delivered', color: 'teal' },
  retrying: { label: 'Failed (will retry)', color: 'orange' },
  failed: { label: 'Failed (final)', color: 'red' },
};

/** One side of the exchange: its leading facts (method and URL, status, recipient; '' for no label), headers and body. */
export interface ExchangePart {
  facts: [label: string, value: string][];
  headers: [name: string, value: string][];
  /** The body as sent or received; pretty-printed when it is JSON. */
  body: string | null;
}

/** What the Deliveries tab shows of one attempt (hook_deliveries.data, see server delivery/send.ts). */
export interface DeliveryView {
  status: DeliveryStatus;
  event: string;
  eventLabel: string;
  attempt: number | null;
  durationMs: number | null;
  /** The answer in a few words: 'HTTP 200', 'Sent', or the error. */
  outcome: string | null;
  error: string | null;
  request: ExchangePart | null;
  /** Null when nothing answered (a network error, a timeout, a refused address). */
  response: ExchangePart | null;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** A body as people read it: JSON indented, anything else as it came. */
export function prettyBody(body: unknown): string | null {
  if (body === null || body === undefined || body === '') return null;
  if (typeof body !== 'string') return JSON.stringify(body, null, 2);
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(parsed, null, 2);
  } catch {
    // Not JSON: shown as it is.
  }
  return body;
}

function headersOf(value: unknown): [string, string][] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([name, header]) =>
    Array.isArray(header)
      ? header.map((one) => [name, String(one)] as [string, string])
      : header === undefined || header === null
        ? []
        : [[name, String(header)] as [string, string]],
  );
}

function facts(pairs: [string, unknown][]): [string, string][] {
  return pairs.flatMap(([label, value]) => {
    const text = textOf(value);
    return text === null ? [] : [[label, text] as [string, string]];
  });
}

/** A web request ({ method, url, headers, body }) or a mail ({ to, subject, text }). */
function requestOf(value: unknown): ExchangePart | null {
  if (!isObject(value)) return null;
  if ('to' in value)
    return {
      facts: facts([
        ['To', value.to],
        ['Subject', value.subject],
      ]),
      headers: [],
      body: prettyBody(value.text),
    };
  const line = [textOf(value.method), textOf(value.url)].filter(Boolean).join(' ');
  return {
    // 'POST https://…' says what it is without a label.
    facts: line ? [['', line]] : [],
    headers: headersOf(value.headers),
    body: prettyBody(value.body),
  };
}

/** An HTTP answer ({ status, headers, body }) or a mail server's ({ messageId, response }). */
function responseOf(value: unknown): ExchangePart | null {
  if (!isObject(value)) return null;
  if ('status' in value)
    return {
      facts: facts([['Status', value.status]]),
      headers: headersOf(value.headers),
      body: prettyBody(value.body),
    };
  return {
    facts: facts([
      ['Message id', value.messageId],
      ['Mail server', value.response],
    ]),
    headers: [],
    body: null,
  };
}

export function deliveryView(delivery: HookDelivery): DeliveryView {
  const data: Loose = isObject(delivery.data) ? delivery.data : {};
  const event = textOf(data.event) ?? delivery.type;
  // A row written without `final` (before retries existed) had no retry to come.
  const final = data.final !== false;
  const status: DeliveryStatus = delivery.success ? 'delivered' : final ? 'failed' : 'retrying';
  const error = textOf(data.error);
  const response = isObject(data.response) ? data.response : null;
  const statusCode = response ? textOf(response.status) : null;
  const outcome = statusCode ? `HTTP ${statusCode}` : (error ?? (delivery.success ? 'Sent' : null));
  return {
    status,
    event,
    eventLabel: describeEvent(event).label,
    attempt: typeof data.attempt === 'number' ? data.attempt : null,
    durationMs: typeof data.durationMs === 'number' ? data.durationMs : null,
    outcome,
    error,
    request: requestOf(data.request),
    response: responseOf(data.response),
  };
}
