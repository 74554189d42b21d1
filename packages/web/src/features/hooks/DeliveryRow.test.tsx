import { fireEvent, screen, within } from '@testing-library/react';
import type { HookDelivery } from '@wharf/contract';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../test/render.tsx';
import { DeliveryRow } from './DeliveryRow.tsx';
import { deliveryView, prettyBody } from './deliveryData.ts';

const date = new Date(Date.now() - 3 * 60_000).toISOString();

function delivery(success: boolean, data: Record<string, unknown>): HookDelivery {
  return { _id: 'd1', success, date, type: String(data.event ?? 'site_added'), data };
}

const webRequest = {
  method: 'POST',
  url: 'https://example.com/hook',
  headers: { 'content-type': 'application/json', 'x-wharf-event': 'site_added' },
  body: JSON.stringify({ id: 'e1', event: 'site_added', data: { siteId: 's1' } }),
};

const delivered = delivery(true, {
  event: 'site_added',
  eventId: 'e1',
  attempt: 1,
  request: webRequest,
  response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'thanks' },
  durationMs: 42,
  error: null,
  final: true,
});

const retrying = delivery(false, {
  event: 'ping',
  attempt: 2,
  request: webRequest,
  response: { status: 503, headers: {}, body: '' },
  durationMs: 1500,
  error: 'The receiver answered 503',
  final: false,
});

const refused = delivery(false, {
  event: 'site_added',
  attempt: 1,
  request: webRequest,
  response: null,
  durationMs: 3,
  error: 'Refused to connect: 127.0.0.1 is a loopback address',
  final: true,
});

describe('DeliveryRow', () => {
  it('shows a delivered attempt: status, event label, attempt, time, duration and answer', () => {
    renderWithTheme(<DeliveryRow delivery={delivered} />);
    expect(screen.getByText('Delivered')).toBeInTheDocument();
    expect(screen.getByText('Site added')).toBeInTheDocument();
    expect(screen.getByText('3 minutes ago · Attempt 1 · 42 ms', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('HTTP 200')).toBeInTheDocument();
    expect(
      screen
        .getByText(/3 minutes ago/)
        .closest('[title]')
        ?.getAttribute('title'),
    ).toMatch(/\d{4}/);
  });

  it('tells a failure that will be retried from one that is final', () => {
    renderWithTheme(
      <>
        <DeliveryRow delivery={retrying} />
        <DeliveryRow delivery={refused} />
      </>,
    );
    expect(screen.getByText('Failed (will retry)')).toBeInTheDocument();
    expect(screen.getByText('Test (ping)')).toBeInTheDocument();
    expect(screen.getByText('HTTP 503')).toBeInTheDocument();
    expect(screen.getByText('Failed (final)')).toBeInTheDocument();
    expect(screen.getByText('Refused to connect: 127.0.0.1 is a loopback address')).toBeInTheDocument();
  });

  it('opens on the request and the response, the JSON body pretty-printed', () => {
    renderWithTheme(<DeliveryRow delivery={delivered} />);
    const toggle = screen.getByRole('button', { name: /^Delivered: Site added, attempt 1/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('Request body')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('POST https://example.com/hook')).toBeInTheDocument();
    const headers = screen.getByLabelText('Request headers');
    expect(within(headers).getByText('x-wharf-event')).toBeInTheDocument();
    expect(screen.getByLabelText('Request body').textContent).toBe(
      JSON.stringify({ id: 'e1', event: 'site_added', data: { siteId: 's1' } }, null, 2),
    );
    expect(screen.getByText('200')).toBeInTheDocument();
    expect(screen.getByLabelText('Response body').textContent).toBe('thanks');
  });

  it('says when nothing answered, with the error', () => {
    renderWithTheme(<DeliveryRow delivery={refused} />);
    fireEvent.click(screen.getByRole('button', { name: /^Failed \(final\)/ }));
    expect(screen.getByText('No answer.')).toBeInTheDocument();
    expect(screen.getAllByText('Refused to connect: 127.0.0.1 is a loopback address')).toHaveLength(2);
  });

  it('redelivers from its own button, without opening the row', () => {
    const onRedeliver = vi.fn();
    renderWithTheme(<DeliveryRow delivery={delivered} onRedeliver={onRedeliver} />);
    fireEvent.click(screen.getByRole('button', { name: 'Redeliver Site added' }));
    expect(onRedeliver).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: /^Delivered/ })).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('delivery data', () => {
  it('reads a mail delivery', () => {
    const view = deliveryView(
      delivery(true, {
        event: 'user_api_token_created',
        attempt: 1,
        request: { to: 'me@example.com', subject: '[Wharf] API token created', text: 'Hello' },
        response: { messageId: '<m1@example.com>', response: '250 OK' },
        durationMs: 12,
        error: null,
        final: true,
      }),
    );
    expect(view).toMatchObject({ status: 'delivered', eventLabel: 'API token created', outcome: 'Sent' });
    expect(view.request?.facts).toEqual([
      ['To', 'me@example.com'],
      ['Subject', '[Wharf] API token created'],
    ]);
    expect(view.response?.facts).toEqual([
      ['Message id', '<m1@example.com>'],
      ['Mail server', '250 OK'],
    ]);
  });

  it('keeps what it cannot read: an unknown event by its name, data of another shape', () => {
    const view = deliveryView({ _id: 'x', success: false, date, type: 'site_teleported', data: 'odd' });
    expect(view).toMatchObject({ status: 'failed', event: 'site_teleported', eventLabel: 'site_teleported' });
    expect(view.request).toBeNull();
  });

  it('pretty-prints JSON bodies only', () => {
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody('plain text')).toBe('plain text');
    expect(prettyBody('42')).toBe('42');
    expect(prettyBody('')).toBeNull();
  });
});
