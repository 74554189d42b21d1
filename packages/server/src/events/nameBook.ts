import type { Executor } from '../db/schema.ts';
import { readJson } from '../lib/json.ts';
import type { DescribableEvent, EventNameBook } from './describe.ts';

type Data = Record<string, unknown>;

const idIn = (data: Data, key: string) => (typeof data[key] === 'string' ? [data[key] as string] : []);
const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/** The ids a batch of events refers to, by the table that names them. */
function idsOf(events: DescribableEvent[]) {
  const data = events.map((event) => readJson<Data>(event.data) ?? {});
  return {
    users: unique([...events.map((e) => e.actor_id), ...data.flatMap((d) => idIn(d, 'userId'))]),
    orgs: unique(events.map((e) => e.org_id)),
    teams: unique(events.map((e) => e.team_id)),
    sites: unique(events.map((e) => e.site_id)),
    branches: unique(data.flatMap((d) => idIn(d, 'branchId'))),
    releases: unique(data.flatMap((d) => idIn(d, 'releaseId'))),
    members: unique(data.flatMap((d) => idIn(d, 'memberId'))),
    hooks: unique(data.flatMap((d) => idIn(d, 'hookId'))),
  };
}

/** The names of every id in one query: a union of one select per table. */
async function liveNames(db: Executor, ids: ReturnType<typeof idsOf>) {
  const selects = [
    ids.users.length > 0 && db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids.users),
    ids.orgs.length > 0 && db.selectFrom('orgs').select(['id', 'name']).where('id', 'in', ids.orgs),
    ids.teams.length > 0 && db.selectFrom('teams').select(['id', 'name']).where('id', 'in', ids.teams),
    ids.sites.length > 0 && db.selectFrom('sites').select(['id', 'name']).where('id', 'in', ids.sites),
    ids.branches.length > 0 && db.selectFrom('branches').select(['id', 'name']).where('id', 'in', ids.branches),
    ids.releases.length > 0 && db.selectFrom('releases').select(['id', 'name']).where('id', 'in', ids.releases),
    ids.hooks.length > 0 && db.selectFrom('hooks').select(['id', 'name']).where('id', 'in', ids.hooks),
    ids.members.length > 0 &&
      db
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.user_id')
        .select(['members.id as id', 'users.name as name'])
        .where('members.id', 'in', ids.members),
  ].filter((select) => select !== false);
  const [first, ...rest] = selects;
  if (!first) return [];
  return rest.reduce((union, select) => union.unionAll(select), first).execute();
}

/**
 * The names the sentences of a batch of events need (`describeEvent`), in two queries: the names
 * of what still exists, then, for deleted sites and teams, the names their deletion events kept
 * (a team's deletion names the sites that went with it).
 */
export async function lookUpEventNames(db: Executor, events: DescribableEvent[]): Promise<EventNameBook> {
  const ids = idsOf(events);
  const names = new Map((await liveNames(db, ids)).map((row) => [row.id, row.name]));
  const gone = new Set(
    [ids.teams, ids.sites, ids.branches, ids.hooks, ids.releases].flat().filter((id) => !names.has(id)),
  );
  const goneSites = ids.sites.filter((id) => gone.has(id));
  const teamsOfGoneSites = events.filter((e) => e.site_id && gone.has(e.site_id)).map((e) => e.team_id);
  const goneTeams = unique([...ids.teams.filter((id) => gone.has(id)), ...teamsOfGoneSites]);
  if (ids.orgs.length === 0 || (goneSites.length === 0 && goneTeams.length === 0)) return { names, gone };
  const deletions = await db
    .selectFrom('events')
    .select(['name', 'site_id', 'team_id', 'data'])
    .where('org_id', 'in', ids.orgs)
    .where('name', 'in', ['site_deleted', 'team_deleted'])
    .where((eb) =>
      eb.or([
        ...(goneSites.length > 0 ? [eb('site_id', 'in', goneSites)] : []),
        ...(goneTeams.length > 0 ? [eb('team_id', 'in', goneTeams)] : []),
      ]),
    )
    .execute();
  for (const deletion of deletions) {
    const data = readJson<{ name?: string; siteNames?: Record<string, string> }>(deletion.data);
    const id = deletion.name === 'site_deleted' ? deletion.site_id : deletion.team_id;
    if (id && data.name && !names.has(id)) names.set(id, data.name);
    for (const [siteId, name] of Object.entries(data.siteNames ?? {})) if (!names.has(siteId)) names.set(siteId, name);
  }
  return { names, gone };
}
