import { readFile } from 'node:fs/promises';
import { RELEASE_CONFIG_SCHEMA_FILE, releaseConfigJsonSchema } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';

const shipped = new URL(`../../../../contract/${RELEASE_CONFIG_SCHEMA_FILE}`, import.meta.url);

describe('the JSON Schema of .wharf.yml', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('is answered to anybody, made from the schema that checks uploads', async () => {
    const answer = await new TestClient(server.url).get('/api/v1/schemas/wharf.yml.json');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(releaseConfigJsonSchema());
    expect(answer.body.properties.forms.items.oneOf).toHaveLength(2);
  });

  it('is shipped in the repository as it is made (npm run write-schema -w @wharf/contract)', async () => {
    expect(JSON.parse(await readFile(shipped, 'utf8'))).toEqual(releaseConfigJsonSchema());
  });
});
