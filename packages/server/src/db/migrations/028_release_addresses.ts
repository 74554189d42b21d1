import type { Kysely } from 'kysely';
import { randomString } from './frozen.ts';

/** The tables as this migration knows them (migrations import nothing live). */
interface Tables {
  releases: { id: string; site_id: string; slug: string | null };
}

/** The length of a release's slug as this migration gave them (36^8: a clash within a site is retried). */
const SLUG_LENGTH = 8;

/**
 * Every release gets a permanent address of its own (`{slug}--{site}`), and records where it came
 * from: the commit and CI run its uploader named (`source`), who uploaded it (`uploader`), how
 * long the upload took and how much of it was new to the organization. The deploy carries these
 * from its start to the release, and `draft` when it goes to no branch. Releases from before have
 * no source, uploader or figures; each gets a slug here.
 */
export async function up(unknownDb: Kysely<unknown>) {
  const db = unknownDb as unknown as Kysely<Tables>;
  await db.schema.alterTable('releases').addColumn('slug', 'text').execute();
  await db.schema
    .alterTable('releases')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('releases').addColumn('uploader', 'text').execute();
  await db.schema.alterTable('releases').addColumn('upload_ms', 'integer').execute();
  await db.schema.alterTable('releases').addColumn('new_files', 'integer').execute();
  await db.schema.alterTable('releases').addColumn('new_bytes', 'bigint').execute();
  await db.schema
    .alterTable('deploys')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('deploys').addColumn('uploader', 'text').execute();
  await db.schema
    .alterTable('deploys')
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await giveEveryReleaseASlug(db);
  await db.schema.createIndex('releases_site_slug').on('releases').columns(['site_id', 'slug']).unique().execute();
}

async function giveEveryReleaseASlug(db: Kysely<Tables>) {
  const releases = await db.selectFrom('releases').select(['id', 'site_id']).where('slug', 'is', null).execute();
  const taken = new Set<string>();
  for (const release of releases) {
    let slug = randomString(SLUG_LENGTH);
    while (taken.has(`${release.site_id}/${slug}`)) slug = randomString(SLUG_LENGTH);
    taken.add(`${release.site_id}/${slug}`);
    await db.updateTable('releases').set({ slug }).where('id', '=', release.id).execute();
  }
}
