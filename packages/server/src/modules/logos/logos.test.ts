import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { logoForm, PNG } from '../../../test/world.ts';

describe('logos', () => {
  let server: TestServer;
  let owner: TestClient;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedIn(server.url, 'owner');
    orgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200)._id;
  });
  afterAll(() => server.close());

  it('stores a PNG and serves it back with its content type', async () => {
    const { logo } = expectStatus(await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, logoForm()), 200);
    expect(expectStatus(await owner.get(`/api/v1/orgs/${orgId}`), 200).logo).toBe(logo);
    const image = await fetch(server.url + logo);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses what is not an image with 415, whatever the client claims', async () => {
    const answer = await owner.request(
      'POST',
      `/api/v1/orgs/${orgId}/logo`,
      logoForm(Buffer.from('<svg onload=alert(1)>'), 'image/png'),
    );
    expect(answer.status).toBe(415);
    expect(answer.body.message).toBe('The logo must be a PNG, JPEG, WebP or GIF image');
  });

  it('refuses a logo over 1 MiB with 413', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const answer = await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, logoForm(big));
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('The logo must be at most 1 MiB');
  });

  it.each([
    ['without a boundary', 'multipart/form-data', 'boundary not found'],
    ['that ends inside the image', 'multipart/form-data; boundary=wharf', 'unexpected end of multipart data'],
  ])('refuses a multipart body %s with 400', async (_, contentType, problem) => {
    const body = Buffer.concat([
      Buffer.from('--wharf\r\ncontent-disposition: form-data; name="file"; filename="logo.png"\r\n\r\n'),
      PNG,
    ]);
    const answer = await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, body, { 'content-type': contentType });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'MULTIPART_INVALID', message: expect.stringContaining(problem) });
  });

  it('removes a logo', async () => {
    expectStatus(await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, logoForm()), 200);
    expect((await owner.delete(`/api/v1/orgs/${orgId}/logo`)).status).toBe(204);
    expect(expectStatus(await owner.get(`/api/v1/orgs/${orgId}`), 200).logo).toBeNull();
    expect((await new TestClient(server.url).get(`/api/v1/orgs/${orgId}/logo`)).status).toBe(404);
  });
});
