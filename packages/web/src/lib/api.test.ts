import { api } from '@wharf/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, keyOf, urlOf } from './api.ts';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
}

describe('the typed client', () => {
  it('builds URLs from the contract, leaving out empty query values', () => {
    expect(urlOf(api.listOrgSites, { params: { orgId: 'o 1' }, query: { page: 0, size: 10, search: '' } })).toBe(
      '/api/v1/orgs/o%201/sites?page=0&size=10',
    );
    expect(urlOf(api.getInvite, { params: { token: 'a/b' } })).toBe('/api/v1/invites/a%2Fb');
  });

  it('sends JSON bodies with the method of the route and reads the answer', async () => {
    const fetch = vi.fn(async () => answer(200, { _id: 'o1', name: 'Acme' }));
    vi.stubGlobal('fetch', fetch);
    const org = await call(api.createOrg, { body: { name: 'Acme' } });
    expect(org).toEqual({ _id: 'o1', name: 'Acme' });
    expect(fetch).toHaveBeenCalledWith('/api/v1/orgs', {
      credentials: 'same-origin',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Acme"}',
    });
  });

  it('answers undefined for 204 No Content', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(204)),
    );
    await expect(call(api.deleteMember, { params: { memberId: 'm1' } })).resolves.toBeUndefined();
  });

  it("throws the server's message with its status", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(409, { statusCode: 409, error: 'Conflict', message: 'Site name is taken' })),
    );
    const failure = await call(api.getUser).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, message: 'Site name is taken' });
  });

  it('says so when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(call(api.getUser)).rejects.toMatchObject({ status: 0, message: 'The server cannot be reached' });
  });

  it('keys the cache by route path first, so that a whole route can be refreshed', () => {
    expect(keyOf(api.getOrg, { params: { orgId: 'o1' } })).toEqual(['/api/v1/orgs/:orgId', { orgId: 'o1' }, {}]);
  });
});
