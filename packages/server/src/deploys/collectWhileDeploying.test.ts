import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarBytes, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../test/harness.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import type { BlobStore } from '../storage/blobStore.ts';
import { blobKey } from './blobs.ts';
import { collectGarbage } from './gc.ts';

const FILES = 240;
/** How long a deploy may wait behind the held collection before the test lets the collection go on. */
const HELD_MS = 3_000;
/** Deploys of hundreds of files, their variants and a collection, on a busy machine. */
const TIMEOUT = 180_000;

interface SiteFile {
  path: string;
  content: Buffer;
}

/** Style sheets (compressible, so they get variants) and binaries, unique to one test. */
function siteFiles(tag: string): SiteFile[] {
  return Array.from({ length: FILES }, (_, index) =>
    index % 2 === 0
      ? { path: `styles/${index}.css`, content: Buffer.from(`.${tag}-${index} { color: red; }\n`.repeat(20)) }
      : { path: `assets/${index}.bin`, content: randomBytes(600 + index) },
  );
}

/**
 * Holds the store's deletions at a gate, as a slow store would: the collection stops after it
 * has decided what to delete, before anything is deleted.
 */
function gateDeletions(store: BlobStore) {
  const remove = store.remove.bind(store);
  let reach!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  store.remove = async (key) => {
    reach();
    await opened;
    return remove(key);
  };
  return { reached, open, restore: () => (store.remove = remove) };
}

const stores = [
  { store: 'a folder', s3: false },
  { store: 'an S3 bucket', s3: true },
];
const cases = stores.flatMap((store) => databases.map((database) => ({ ...store, ...database })));

describe.each(cases)(
  'a collection while a deploy sends the same files again, in $store on $name',
  ({ s3, postgres }) => {
    let bucket: S3Peer | undefined;
    let server: TestServer;
    let owner: TestClient;
    let siteId: string;

    beforeAll(async () => {
      bucket = s3 ? await startS3Peer() : undefined;
      server = await startTestServer({ postgres, env: bucket?.env('race') });
      owner = await signedIn(server.url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
      const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
      siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'reverted' }), 200)._id;
    });
    afterAll(async () => {
      await server?.close();
      await bucket?.close();
    });

    /** A deploy as the CLI makes one: the manifest, the files the server says are missing, then finalise. */
    async function deploy(name: string, files: SiteFile[]) {
      const manifest = files.map(({ path, content }) => ({ path, hash: sha256(content), size: content.length }));
      const started = expectStatus(
        await owner.post(`/api/v1/sites/${siteId}/deploys`, { name, branches: ['main'], files: manifest }),
        200,
      );
      const missing = new Set<string>(started.missing);
      const entries = files.filter(({ content }) => missing.delete(sha256(content)));
      if (entries.length > 0) {
        const tar = await tarBytes(entries.map(({ content }) => ({ name: sha256(content), content })));
        const sent = await owner.request('POST', `/api/v1/deploys/${started._id}/files`, tar, {
          'content-type': 'application/x-tar',
        });
        expect(sent.status).toBe(204);
      }
      return expectStatus(await owner.post(`/api/v1/deploys/${started._id}/finalize`), 200);
    }

    const upload = async (name: string, files: SiteFile[]) => {
      const archive = await tarGz(files.map(({ path, content }) => ({ name: path, content })));
      return expectStatus(
        await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, name)),
        200,
      );
    };

    /** Deploys the files, waits for their variants, then leaves them to no release: the next collection takes them. */
    async function filesNoReleaseUses(tag: string) {
      const files = siteFiles(tag);
      const old = await deploy(`${tag} v1`, files);
      const hashes = files.map(({ content }) => sha256(content));
      const pending = () =>
        server.app.db
          .selectFrom('blobs')
          .select('hash')
          .where('hash', 'in', hashes)
          .where('variants_pending', '=', 1)
          .execute();
      await expect.poll(async () => (await pending()).length, { timeout: 60_000, interval: 200 }).toBe(0);
      await deploy(`${tag} v2`, [{ path: 'index.html', content: Buffer.from(`${tag} moved on`) }]);
      expectStatus(await owner.delete(`/api/v1/releases/${old._id}`), 204);
      return files;
    }

    /**
     * Runs a collection, held between its decision and its deletions, while `resend` sends the
     * files again: the collection goes on once the deploy is done, or once the deploy has waited
     * long enough behind it.
     */
    async function collectWhile(resend: () => Promise<{ deployedBranches: { url: string }[] }>) {
      const gate = gateDeletions(server.app.blobs);
      try {
        // Past the grace young blobs get, well within the hour staged uploads are kept.
        const collecting = collectGarbage(server.app, new Date(Date.now() + 15 * 60_000));
        await Promise.race([gate.reached, collecting]);
        const resending = resend();
        await Promise.race([resending.catch(() => undefined), sleep(HELD_MS)]);
        gate.open();
        await collecting;
        return await resending;
      } finally {
        gate.restore();
      }
    }

    /** The files whose content the store lacks (or holds short), and those the site does not serve whole. */
    async function lostFiles(url: string, files: SiteFile[]) {
      const host = new URL(url).host;
      const port = Number(new URL(server.url).port);
      const notStored: string[] = [];
      const notServed: string[] = [];
      for (const { path, content } of files) {
        if ((await server.app.blobs.size(blobKey(sha256(content)))) !== content.length) notStored.push(path);
        // A file lost from the store may cut the answer off mid-way: that is not serving it either.
        const served = await siteRequest(port, host, `/${path}`, { headers: { 'accept-encoding': 'identity' } }).catch(
          () => null,
        );
        if (served?.status !== 200 || !served.body.equals(content)) notServed.push(path);
      }
      // Variants the database records must be there too: the edge serves them as recorded.
      const variants = await server.app.db
        .selectFrom('blobs')
        .select(['hash', 'br_size', 'gz_size'])
        .where(
          'hash',
          'in',
          files.map(({ content }) => sha256(content)),
        )
        .execute();
      for (const { hash, br_size, gz_size } of variants) {
        if (br_size !== null && (await server.app.blobs.size(blobKey(hash, 'br'))) !== Number(br_size))
          notStored.push(`${hash}.br`);
        if (gz_size !== null && (await server.app.blobs.size(blobKey(hash, 'gzip'))) !== Number(gz_size))
          notStored.push(`${hash}.gz`);
      }
      return { notStored: notStored.length, notServed: notServed.length };
    }

    it(
      'keeps every file of a release deployed again while the collection deletes the files of the old one',
      async () => {
        const files = await filesNoReleaseUses('cli');
        const release = await collectWhile(() => deploy('cli revert', files));
        expect(await lostFiles(release.deployedBranches[0]!.url, files)).toEqual({ notStored: 0, notServed: 0 });
      },
      TIMEOUT,
    );

    it(
      'keeps every file of an archive uploaded again while the collection deletes the files of the old release',
      async () => {
        const files = await filesNoReleaseUses('archive');
        const release = await collectWhile(() => upload('archive revert', files));
        expect(await lostFiles(release.deployedBranches[0]!.url, files)).toEqual({ notStored: 0, notServed: 0 });
      },
      TIMEOUT,
    );
  },
);
