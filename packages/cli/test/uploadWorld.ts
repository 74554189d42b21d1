import {
  expectStatus,
  signedIn,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestServerOptions,
} from '@wharf/server/testing';

export interface UploadWorld {
  server: TestServer;
  owner: TestClient;
  siteId: string;
  siteName: string;
  /** A site token of the site: what CI jobs are given. */
  siteToken: string;
  /** An API token of the owner with the release_create scope. */
  apiToken: string;
}

/** A real Wharf with one site and both kinds of token that may upload to it, built through the API. */
export async function startUploadWorld(options: TestServerOptions = {}): Promise<UploadWorld> {
  const server = await startTestServer(options);
  const owner = await signedIn(server.url, 'owner');
  const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
  const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'docs' }), 200);
  const siteToken = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'ci' }), 200);
  const apiToken = expectStatus(
    await owner.post('/api/v1/api-tokens', { name: 'uploads', scopes: ['release_create'] }),
    200,
  );
  return { server, owner, siteId: site._id, siteName: site.name, siteToken: siteToken.value, apiToken: apiToken.value };
}
