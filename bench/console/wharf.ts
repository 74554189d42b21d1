import { AdminClient, type WharfServer } from '../edge/wharf.ts';

/** The key under which the console keeps its current organization (packages/web/src/lib/storage.ts). */
const CURRENT_ORG_KEY = 'wharf.currentOrg';

export interface SignedInVisitor {
  cookie: string;
  localStorage: Record<string, string>;
}

/**
 * The first admin signed in, with an organization of a few teams as its current one: what its
 * browser holds when it comes back to the organization's home.
 */
export async function signedInWithOrg(wharf: WharfServer): Promise<SignedInVisitor> {
  const api = new AdminClient(`http://127.0.0.1:${wharf.port}`);
  await api.call('POST', '/auth/in-memory', { user: 'admin', password: wharf.adminPassword });
  const org = await api.call<{ _id: string }>('POST', '/api/v1/orgs', { name: 'Bench' });
  for (const name of ['Web', 'Marketing', 'Docs']) await api.call('POST', `/api/v1/orgs/${org._id}/teams`, { name });
  return { cookie: api.sessionCookie, localStorage: { [CURRENT_ORG_KEY]: org._id } };
}
