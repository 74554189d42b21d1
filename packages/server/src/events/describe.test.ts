import { eventNames } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { consoleLink, type DescribableEvent, describeEvent, type EventNameBook, hasSentence } from './describe.ts';

const book: EventNameBook = {
  names: new Map([
    ['u-ada', 'Ada'],
    ['u-bob', 'Bob'],
    ['m-bob', 'Bob'],
    ['o-acme', 'Acme'],
    ['t-web', 'Web'],
    ['s-blog', 'blog'],
    ['b-main', 'main'],
    ['r-v2', 'v2'],
  ]),
  gone: new Set(['s-gone', 'b-old', 'r-old']),
};

function event(name: string, data: Record<string, unknown> = {}, scope: Partial<DescribableEvent> = {}) {
  return {
    name,
    org_id: 'o-acme',
    team_id: name.startsWith('team_') || name.startsWith('site_') || name === 'form_submitted' ? 't-web' : null,
    site_id: name.startsWith('site_') || name === 'form_submitted' ? 's-blog' : null,
    actor_id: 'u-ada',
    data: JSON.stringify(data),
    ...scope,
  };
}

describe('the sentence of an event', () => {
  it.each([...eventNames, 'ping', 'form_submitted'])('has one of its own for %s', (name) => {
    expect(hasSentence(name)).toBe(true);
    const sentence = describeEvent(event(name), book);
    expect(sentence).not.toMatch(/caused the event/);
    expect(sentence).not.toMatch(/\b(?:undefined|null)\b|\[object/);
  });

  it('falls back to a generic sentence for an event it does not know', () => {
    expect(describeEvent(event('site_teleported'), book)).toBe('Ada caused the event site_teleported');
  });

  it.each([
    ['site_added', { name: 'blog' }, 'Ada created the site blog'],
    [
      'site_branch_release_set',
      { branchId: 'b-main', name: 'main', releaseId: 'r-x', releaseName: 'v2' },
      "Ada set release 'v2' on branch main of blog",
    ],
    ['org_invite_added', { email: 'bob@example.com', admin: false }, 'Ada invited bob@example.com to Acme'],
    ['org_invite_added', { email: 'bob@example.com', admin: true }, 'Ada invited bob@example.com to Acme as an admin'],
    ['org_member_updated', { memberId: 'm-bob', userId: 'u-bob', admin: true }, 'Ada made Bob an admin of Acme'],
    ['org_member_deleted', { memberId: 'm-ada', userId: 'u-ada' }, 'Ada left Acme'],
    ['org_member_deleted', { memberId: 'm-bob', userId: 'u-bob' }, 'Ada removed Bob from Acme'],
    ['team_member_added', { memberId: 'm-bob' }, 'Ada added Bob to the team Web'],
    ['team_deleted', { name: 'Old' }, 'Ada deleted the team Old'],
    [
      'site_hook_created',
      { hookId: 'h', type: 'slack', name: 'deploys' },
      "Ada added the Slack hook 'deploys' to blog",
    ],
    [
      'site_release_renamed',
      { releaseId: 'r-v2', name: 'v2', previousName: 'v1' },
      "Ada renamed the release 'v1' of blog to 'v2'",
    ],
    ['site_branch_updated', { branchId: 'b-main', headers: ['x-a'] }, 'Ada saved the headers of branch main of blog'],
    ['site_updated', { name: 'blog2', spa: true }, 'Ada updated the settings of blog2'],
    [
      'site_updated',
      { domainVerified: 'www.example.com', method: 'txt' },
      'Ada verified the domain www.example.com of blog',
    ],
    ['form_submitted', { form: 'contact' }, 'A visitor submitted the form contact on blog'],
    ['ping', {}, 'This is a test delivery from Wharf'],
  ])('%s reads as a person would say it', (name, data, sentence) => {
    expect(describeEvent(event(name, data), book)).toBe(sentence);
  });

  it('names Wharf itself when no one acted', () => {
    expect(describeEvent(event('site_release_created', { name: 'v3' }, { actor_id: null }), book)).toBe(
      "The system uploaded the release 'v3' to blog",
    );
  });

  it('names the token an upload came through, and its commit and CI run', () => {
    const origin = {
      uploader: { kind: 'siteToken', name: 'GitHub deploys', userId: null, tokenName: 'GitHub deploys' },
      commit: '3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345',
      ciRunUrl: 'https://github.com/acme/blog/actions/runs/42',
    };
    expect(describeEvent(event('site_release_created', { name: 'v3', ...origin }, { actor_id: null }), book)).toBe(
      "The site token 'GitHub deploys' uploaded the release 'v3' to blog from commit 3f2c9a1 (CI run https://github.com/acme/blog/actions/runs/42)",
    );
    const byApiToken = { uploader: { kind: 'apiToken', name: 'Ada', userId: 'u-ada', tokenName: 'laptop' } };
    expect(describeEvent(event('site_release_created', { name: 'v4', ...byApiToken }), book)).toBe(
      "Ada with the API token 'laptop' uploaded the release 'v4' to blog",
    );
  });

  it('keeps the name a deleted site had, and says so when it is lost', () => {
    const lost = event('site_password_set', {}, { site_id: 's-unknown' });
    expect(describeEvent(lost, book)).toBe('Ada set a password on a deleted site');
    expect(describeEvent(event('site_deleted', { name: 'blog' }, { site_id: 's-gone' }), book)).toBe(
      'Ada deleted the site blog',
    );
  });
});

describe('the console link of an event', () => {
  it.each([
    ['site_branch_release_set', { branchId: 'b-main' }, {}, '/sites/s-blog/branches/b-main'],
    ['site_branch_release_set', { branchId: 'b-old' }, {}, '/sites/s-blog/branches'],
    ['site_release_created', { releaseId: 'r-v2' }, {}, '/sites/s-blog/releases/r-v2'],
    ['site_release_renamed', { releaseId: 'r-old' }, {}, '/sites/s-blog/releases'],
    ['site_release_deleted', { releaseId: 'r-v2' }, {}, '/sites/s-blog/releases'],
    ['site_password_set', {}, {}, '/sites/s-blog/settings'],
    ['site_deleted', {}, {}, null],
    ['site_added', {}, { site_id: 's-gone' }, null],
    ['team_member_added', {}, {}, '/teams/t-web/members'],
    ['org_hook_created', { hookId: 'h1' }, {}, '/org/hooks/h1'],
    ['org_hook_deleted', { hookId: 'h1' }, {}, '/org/hooks'],
    ['site_hook_updated', { hookId: 'h2' }, {}, '/sites/s-blog/hooks/h2'],
    ['org_invite_added', {}, {}, '/org/staff'],
    ['org_updated', {}, {}, '/org/settings'],
    ['form_submitted', { branchId: 'b-main', form: 'contact' }, {}, '/sites/s-blog/branches/b-main/forms'],
    ['ping', {}, {}, null],
  ])('of %s %j is %s', (name, data, scope, link) => {
    expect(consoleLink(event(name, data, scope), book)).toBe(link);
  });
});
