import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, uploadRelease } from '../../../test/world.ts';

const NAMES = [
  '100% done',
  '100 percent',
  'snake_case fix',
  'snakeXcase fix',
  'Fix "quoted" title',
  "it's here",
  'Été à Paris',
  'ETE plain',
  'path a\\b c',
  'party 😀x time',
];

describe.each(databases)('release lists on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    const world = await buildWorld(server.url);
    owner = world.clients.owner;
    siteId = world.site._id;
    base = `/api/v1/sites/${siteId}/releases`;
    for (const name of NAMES) await uploadRelease(owner, siteId, name, []);
  });
  afterAll(() => server.close());

  const search = async (text: string) => {
    const found = expectStatus(await owner.get(`${base}?search=${encodeURIComponent(text)}&page=0&size=20`), 200);
    expect(found.count).toBe(found.items.length);
    return found.items.map((release: { name: string }) => release.name);
  };

  it('finds releases by any part of their name, in any case, newest first', async () => {
    expect(await search('FIX')).toEqual(['Fix "quoted" title', 'snakeXcase fix', 'snake_case fix']);
    expect(await search('été')).toEqual(['Été à Paris']);
    expect(await search('ÉTÉ')).toEqual(['Été à Paris']);
    expect(await search('nothing like it')).toEqual([]);
  });

  it('takes %, _, quotes and backslashes as plain characters', async () => {
    expect(await search('100%')).toEqual(['100% done']);
    expect(await search('e_c')).toEqual(['snake_case fix']);
    expect(await search('"quoted"')).toEqual(['Fix "quoted" title']);
    expect(await search("it's")).toEqual(["it's here"]);
    expect(await search('a\\b')).toEqual(['path a\\b c']);
  });

  it('finds a text of fewer than 3 characters beyond the UTF-16 units the minimum counts', async () => {
    expect(await search('😀x')).toEqual(['party 😀x time']);
  });

  it('follows a rename', async () => {
    const list = expectStatus(await owner.get(`${base}?search=plain&page=0&size=10`), 200);
    expectStatus(await owner.put(`/api/v1/releases/${list.items[0]._id}`, { name: 'ETE renamed' }), 200);
    expect(await search('plain')).toEqual([]);
    expect(await search('renamed')).toEqual(['ETE renamed']);
  });

  it('counts the whole list on every page, also after deletes the API did not make', async () => {
    const all = expectStatus(await owner.get(`${base}?page=0&size=4`), 200);
    const total = NAMES.length + 1;
    expect(all.count).toBe(total);
    expect(expectStatus(await owner.get(`${base}?page=100&size=4`), 200)).toEqual({ items: [], count: total });

    // The newest is served by main; the two before it are not.
    expectStatus(await owner.delete(`/api/v1/releases/${all.items[1]._id}`), 204);
    // As a retention job or a site's deletion would: rows gone without the list's code knowing.
    await server.app.db.deleteFrom('releases').where('id', '=', all.items[2]._id).execute();
    const after = expectStatus(await owner.get(`${base}?page=0&size=4`), 200);
    expect(after.count).toBe(total - 2);
    expect(after.items.map((release: { _id: string }) => release._id)).not.toContain(all.items[2]._id);
    expect(await search(all.items[2].name)).toEqual([]);
  });
});
