import type { EventName } from '@wharf/contract';
import { readJson } from '../lib/json.ts';
import type { OutboxEvent } from './outbox.ts';

/** An event as the outbox holds it. Besides the contract's names: `ping` and `form_submitted`. */
export type DescribableEvent = Pick<OutboxEvent, 'name' | 'org_id' | 'team_id' | 'site_id' | 'actor_id' | 'data'>;

/**
 * The names of what events refer to (users, organizations, teams, sites, branches, releases,
 * members, hooks), by id: ids are random, so one map holds every kind. `gone` holds the ids that
 * were looked for and no longer exist; a deleted entity keeps the name its deletion recorded.
 */
export interface EventNameBook {
  names: ReadonlyMap<string, string>;
  gone: ReadonlySet<string>;
}

export const noNames: EventNameBook = { names: new Map(), gone: new Set() };

type Data = Record<string, unknown>;

/** What a sentence is made of: the event's data and the names of what it refers to. */
interface Parts {
  who: string;
  data: Data;
  org: string;
  /** 'the team Web', or 'a deleted team' when its name is lost. */
  team: string;
  site: string;
  branch: string;
  release: string;
  /** The member or user the event is about (not the actor). */
  person: string;
  /** The actor is the person the event is about. */
  self: boolean;
  hook: string;
}

type Sentence = (parts: Parts) => string;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const quoted = (name: string) => `'${name}'`;
const hookTypeNames: Record<string, string> = { web: 'web', slack: 'Slack', mattermost: 'Mattermost', email: 'email' };

const hookSentences = (owner: (parts: Parts) => string) => ({
  created: (p: Parts) => `${p.who} added the ${p.hook} to ${owner(p)}`,
  updated: (p: Parts) => `${p.who} updated the ${p.hook} of ${owner(p)}`,
  deleted: (p: Parts) => `${p.who} deleted the ${p.hook} of ${owner(p)}`,
});
const orgHook = hookSentences((p) => p.org);
const teamHook = hookSentences((p) => p.team);
const siteHook = hookSentences((p) => p.site);

/** The team as the event's data names it (its name then), else as it is called now. */
const teamNamed = (p: Parts) => (text(p.data.name) ? `the team ${text(p.data.name)}` : p.team);
/** Where an upload came from, as its events recorded it: the commit and the CI run. */
function fromCi(data: Data): string {
  const commit = text(data.commit);
  const run = text(data.ciRunUrl);
  return `${commit ? ` from commit ${commit.slice(0, 7)}` : ''}${run ? ` (CI run ${run})` : ''}`;
}

/**
 * Who acted: the user, named with the API token they used for an upload; a site token by its
 * name (no user acts through it); Wharf itself when neither.
 */
function whoActed(event: DescribableEvent, data: Data, book: EventNameBook): string {
  const uploader = data.uploader as { kind?: unknown; tokenName?: unknown } | undefined;
  const token = text(uploader?.tokenName);
  if (event.actor_id === null)
    return uploader?.kind === 'siteToken' ? `The site token ${quoted(token ?? 'unnamed')}` : 'The system';
  const name = book.names.get(event.actor_id) ?? 'Someone';
  return uploader?.kind === 'apiToken' && token ? `${name} with the API token ${quoted(token)}` : name;
}

/** `the branch 'main' (3f2a9c1)`: what a build built, its commit when known. */
function theBuild(data: Data): string {
  const commit = text(data.commit);
  return `the branch ${quoted(text(data.gitBranch) ?? '?')}${commit ? ` (${commit.slice(0, 7)})` : ''}`;
}

/** `API_URL (production)`, `TOKEN (branch 'feature/x', secret)`: a variable's name and where it applies, never its value. */
function theVariable(data: Data): string {
  const context =
    text(data.context) === 'branch' ? `branch ${quoted(text(data.gitBranch) ?? '?')}` : (text(data.context) ?? 'all');
  const where = context === 'all' ? 'every build' : context;
  return `${text(data.key) ?? '?'} (${where}${data.masked === true ? ', secret' : ''})`;
}

const admin = (data: Data) => (data.admin === true ? ' as an admin' : '');

/** One sentence per event of the contract; typed by every name, so a new event cannot lack one. */
const sentences: Record<Exclude<EventName, 'form_submitted'>, Sentence> = {
  user_api_token_created: (p) => `${p.who} created the API token ${quoted(text(p.data.name) ?? 'unnamed')}`,
  user_api_token_updated: (p) => `${p.who} updated the API token ${quoted(text(p.data.name) ?? 'unnamed')}`,
  user_api_token_deleted: (p) =>
    text(p.data.name)
      ? `${p.who} deleted the API token ${quoted(text(p.data.name)!)}`
      : `${p.who} deleted an API token`,

  org_created: (p) => `${p.who} created the organization ${text(p.data.name) ?? p.org}`,
  org_updated: (p) => `${p.who} updated the settings of ${text(p.data.name) ?? p.org}`,
  org_logo_set: (p) => `${p.who} set the logo of ${p.org}`,
  org_logo_removed: (p) => `${p.who} removed the logo of ${p.org}`,
  org_invite_added: (p) => `${p.who} invited ${text(p.data.email) ?? 'someone'} to ${p.org}${admin(p.data)}`,
  org_invite_deleted: (p) =>
    `${p.who} withdrew the invitation ${text(p.data.email) ? `of ${text(p.data.email)} ` : ''}to ${p.org}`,
  org_invite_accepted: (p) => `${p.who} accepted the invitation to ${p.org}`,
  org_invite_declined: (p) => `${p.who} declined the invitation to ${p.org}`,
  org_member_joined: (p) => `${p.who} joined ${p.org}${admin(p.data)}`,
  org_member_updated: (p) =>
    p.data.admin === true
      ? `${p.who} made ${p.person} an admin of ${p.org}`
      : `${p.who} took the admin right of ${p.person} in ${p.org}`,
  org_member_deleted: (p) => (p.self ? `${p.who} left ${p.org}` : `${p.who} removed ${p.person} from ${p.org}`),
  org_hook_created: orgHook.created,
  org_hook_updated: orgHook.updated,
  org_hook_deleted: orgHook.deleted,

  team_added: (p) => `${p.who} added ${teamNamed(p)}`,
  team_updated: (p) => `${p.who} updated the settings of ${teamNamed(p)}`,
  team_deleted: (p) => `${p.who} deleted ${teamNamed(p)}`,
  team_logo_set: (p) => `${p.who} set the logo of ${p.team}`,
  team_logo_removed: (p) => `${p.who} removed the logo of ${p.team}`,
  team_member_added: (p) => `${p.who} added ${p.person} to ${p.team}`,
  team_member_deleted: (p) => `${p.who} removed ${p.person} from ${p.team}`,
  team_hook_created: teamHook.created,
  team_hook_updated: teamHook.updated,
  team_hook_deleted: teamHook.deleted,

  site_added: (p) => `${p.who} created the site ${text(p.data.name) ?? p.site}`,
  site_updated: (p) => {
    if (Array.isArray(p.data.headers)) return `${p.who} saved the headers of ${p.site}`;
    const verified = text(p.data.domainVerified);
    if (verified) return `${p.who} verified the domain ${verified} of ${p.site}`;
    const ended = text(p.data.domainClaimEnded);
    if (ended)
      return p.data.reason === 'expired'
        ? `The claim of ${ended} by ${p.site} expired unverified`
        : `The claim of ${ended} by ${p.site} ended: another site verified it`;
    return `${p.who} updated the settings of ${text(p.data.name) ?? p.site}`;
  },
  site_logo_set: (p) => `${p.who} set the logo of ${p.site}`,
  site_logo_removed: (p) => `${p.who} removed the logo of ${p.site}`,
  site_deleted: (p) => `${p.who} deleted the site ${text(p.data.name) ?? p.site}`,
  site_password_set: (p) => `${p.who} set a password on ${p.site}`,
  site_password_removed: (p) => `${p.who} removed the password of ${p.site}`,
  site_hook_created: siteHook.created,
  site_hook_updated: siteHook.updated,
  site_hook_deleted: siteHook.deleted,
  site_token_added: (p) => `${p.who} added the token ${quoted(text(p.data.name) ?? 'unnamed')} to ${p.site}`,
  site_token_deleted: (p) =>
    text(p.data.name)
      ? `${p.who} deleted the token ${quoted(text(p.data.name)!)} of ${p.site}`
      : `${p.who} deleted a token of ${p.site}`,
  site_repository_connected: (p) =>
    `${p.who} connected ${p.site} to the repository ${quoted(text(p.data.url) ?? 'unknown')}`,
  site_repository_updated: (p) => `${p.who} changed how ${p.site} builds from its repository`,
  site_repository_disconnected: (p) => `${p.who} disconnected ${p.site} from its repository`,
  site_deploy_key_renewed: (p) => `${p.who} replaced the deploy key of ${p.site}`,
  site_repository_set_up_at_forge: (p) =>
    `${p.who} added the webhook and the deploy key of ${p.site} to ${text(p.data.repository) ?? 'its repository'} at ${text(p.data.provider) ?? 'its code host'}`,
  site_forge_token_set: (p) => `${p.who} gave the builds of ${p.site} a forge access token`,
  site_forge_token_removed: (p) => `${p.who} removed the forge access token of ${p.site}`,
  site_webhook_secret_renewed: (p) => `${p.who} replaced the webhook secret of ${p.site}`,
  site_ssh_host_key_forgotten: (p) => `${p.who} made ${p.site} forget the SSH host key of its repository`,
  site_build_queued: (p) =>
    text(p.data.via)
      ? `${text(p.data.via)} queued a build of ${theBuild(p.data)} of ${p.site}`
      : `${p.who} queued a build of ${theBuild(p.data)} of ${p.site}`,
  site_build_started: (p) => `The build of ${theBuild(p.data)} of ${p.site} started`,
  site_build_succeeded: (p) => `The build of ${theBuild(p.data)} of ${p.site} succeeded`,
  site_build_failed: (p) =>
    `The build of ${theBuild(p.data)} of ${p.site} failed: ${text(p.data.error) ?? 'no reason was given'}`,
  site_build_cancelled: (p) => `${p.who} cancelled the build of ${theBuild(p.data)} of ${p.site}`,
  site_build_hook_created: (p) =>
    `${p.who} created the build hook ${quoted(text(p.data.name) ?? 'unnamed')} of ${p.site}`,
  site_build_hook_deleted: (p) =>
    `${p.who} deleted the build hook ${quoted(text(p.data.name) ?? 'unnamed')} of ${p.site}`,
  site_build_cache_cleared: (p) => `${p.who} cleared the build cache of ${p.site}`,
  site_build_variable_created: (p) => `${p.who} added the build variable ${theVariable(p.data)} to ${p.site}`,
  site_build_variable_updated: (p) => `${p.who} changed the build variable ${theVariable(p.data)} of ${p.site}`,
  site_build_variable_deleted: (p) => `${p.who} deleted the build variable ${theVariable(p.data)} of ${p.site}`,
  site_release_created: (p) => `${p.who} uploaded the release ${quoted(p.release)} to ${p.site}${fromCi(p.data)}`,
  site_release_renamed: (p) =>
    `${p.who} renamed the release ${quoted(text(p.data.previousName) ?? '?')} of ${p.site} to ${quoted(p.release)}`,
  site_release_deleted: (p) =>
    `${p.who} deleted the release ${quoted(p.release)} of ${p.site}${p.data.reason === 'retention' ? ', past its retention' : ''}`,
  site_release_password_set: (p) =>
    `${p.who} set a password on the address of release ${quoted(p.release)} of ${p.site}`,
  site_release_password_removed: (p) =>
    `${p.who} removed the password of the address of release ${quoted(p.release)} of ${p.site}`,
  site_deploy_failed: (p) =>
    `${p.who} could not upload ${text(p.data.name) ? `the release ${quoted(text(p.data.name)!)}` : 'a release'} to ${p.site}${fromCi(p.data)}: ${text(p.data.message) ?? text(p.data.code) ?? 'it failed'}`,
  site_branch_added: (p) => `${p.who} added the branch ${p.branch} to ${p.site}`,
  site_branch_updated: (p) =>
    Array.isArray(p.data.headers)
      ? `${p.who} saved the headers of branch ${p.branch} of ${p.site}`
      : `${p.who} renamed the branch ${text(p.data.previousName) ?? '?'} of ${p.site} to ${p.branch}`,
  site_branch_deleted: (p) =>
    `${p.who} deleted the branch ${p.branch} of ${p.site}${p.data.expired === true ? ', which had expired' : ''}`,
  site_branch_release_set: (p) =>
    `${p.who} set release ${quoted(p.release)} on branch ${p.branch} of ${p.site}${fromCi(p.data)}`,
  site_branch_password_set: (p) => `${p.who} set a password on branch ${p.branch} of ${p.site}`,
  site_branch_password_removed: (p) => `${p.who} removed the password of branch ${p.branch} of ${p.site}`,
  site_branch_redirects_set: (p) => `${p.who} saved the redirects of branch ${p.branch} of ${p.site}`,
};

/** Events that are not changes somebody made. */
const otherSentences: Record<'ping' | 'form_submitted', Sentence> = {
  ping: () => 'This is a test delivery from Wharf',
  form_submitted: (p) => {
    const form = text(p.data.form) ?? text(p.data.name);
    return `A visitor submitted ${form ? `the form ${form}` : 'a form'} on ${p.site}`;
  },
};

const allSentences: Record<string, Sentence> = { ...sentences, ...otherSentences };

/** Whether `describeEvent` has a sentence of its own for the event, rather than the generic one. */
export function hasSentence(name: string): boolean {
  return Object.hasOwn(allSentences, name);
}

function partsOf(event: DescribableEvent, data: Data, book: EventNameBook): Parts {
  const name = (id: unknown) => (typeof id === 'string' ? book.names.get(id) : undefined);
  const isRelease = event.name.startsWith('site_release_');
  return {
    who: whoActed(event, data, book),
    data,
    org: name(event.org_id) ?? 'the organization',
    team: name(event.team_id) ? `the team ${name(event.team_id)}` : 'a deleted team',
    site: name(event.site_id) ?? 'a deleted site',
    branch: (event.name.startsWith('site_branch_') && text(data.name)) || name(data.branchId) || 'a deleted branch',
    release: (isRelease ? text(data.name) : text(data.releaseName)) ?? name(data.releaseId) ?? 'a deleted release',
    person: name(data.userId) ?? name(data.memberId) ?? 'a former member',
    self: event.actor_id !== null && event.actor_id === data.userId,
    hook: `${hookTypeNames[text(data.type) ?? ''] ?? ''} hook ${quoted(text(data.name) ?? name(data.hookId) ?? 'unnamed')}`.trim(),
  };
}

/**
 * The event in one short English sentence ("Ada set release 'v2' on branch main of blog"), for
 * the audit log and for the messages hooks send. Pure: the names come from `book`
 * (`lookUpEventNames` gathers them for a batch of events).
 */
export function describeEvent(event: DescribableEvent, book: EventNameBook = noNames): string {
  const data = readJson<Data>(event.data) ?? {};
  const parts = partsOf(event, data, book);
  const sentence = allSentences[event.name];
  return sentence ? sentence(parts) : `${parts.who} caused the event ${event.name}`;
}

/** The console's page of a site's, team's or the organization's hooks. */
function hooksPage(event: DescribableEvent, data: Data): string {
  const base = event.name.startsWith('site_')
    ? `/sites/${event.site_id}/hooks`
    : event.name.startsWith('team_')
      ? `/teams/${event.team_id}/hooks`
      : '/org/hooks';
  return event.name.endsWith('_deleted') || !text(data.hookId) ? base : `${base}/${data.hookId}`;
}

function siteLink(event: DescribableEvent, data: Data, gone: ReadonlySet<string>): string | null {
  const site = `/sites/${event.site_id}`;
  const branchId = text(data.branchId);
  const branch = branchId && !gone.has(branchId) ? `${site}/branches/${branchId}` : `${site}/branches`;
  if (event.name === 'site_deleted') return null;
  if (event.name === 'form_submitted') return branchId && !gone.has(branchId) ? `${branch}/forms` : site;
  if (event.name === 'site_branch_deleted') return `${site}/branches`;
  if (event.name.startsWith('site_branch_')) return branch;
  const releaseId = text(data.releaseId);
  if (
    event.name.startsWith('site_release_') &&
    event.name !== 'site_release_deleted' &&
    releaseId &&
    !gone.has(releaseId)
  )
    return `${site}/releases/${releaseId}`;
  if (event.name.startsWith('site_release_')) return `${site}/releases`;
  if (event.name.startsWith('site_token_')) return `${site}/tokens`;
  const buildId = text(data.buildId);
  if (event.name.startsWith('site_build_') && buildId && !gone.has(buildId)) return `${site}/builds/${buildId}`;
  if (event.name === 'site_added') return site;
  return `${site}/settings`;
}

function teamLink(event: DescribableEvent): string | null {
  const team = `/teams/${event.team_id}`;
  if (event.name === 'team_deleted') return null;
  if (event.name.startsWith('team_member_')) return `${team}/members`;
  if (event.name === 'team_added') return team;
  return `${team}/settings`;
}

/**
 * Where in the console the event can be looked at (`/sites/{siteId}/branches/{branchId}`), or
 * null when there is nothing left to see. Things `book` knows to be gone get no link.
 */
export function consoleLink(event: DescribableEvent, book: EventNameBook = noNames): string | null {
  const data = readJson<Data>(event.data) ?? {};
  const { gone } = book;
  if ((event.site_id && gone.has(event.site_id)) || (event.team_id && gone.has(event.team_id))) return null;
  if (event.name === 'ping') return null;
  if (/_hook_(created|updated|deleted)$/.test(event.name)) {
    return text(data.hookId) && gone.has(data.hookId as string) ? hooksPage(event, {}) : hooksPage(event, data);
  }
  if (event.name.startsWith('user_api_token_')) {
    const tokenId = text(data.tokenId);
    return event.name.endsWith('_deleted') || !tokenId || gone.has(tokenId)
      ? '/user/api-tokens'
      : `/user/api-tokens/${tokenId}`;
  }
  if (event.site_id) return siteLink(event, data, gone);
  if (event.team_id) return teamLink(event);
  if (event.name.startsWith('org_invite_') || event.name.startsWith('org_member_')) return '/org/staff';
  return '/org/settings';
}
