import { api, isRepositoryOf, type Repository } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { userOf } from '../../access/rules.ts';
import type { Config } from '../../config/types.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { newSecret, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { signInProvidersOf } from '../auth/providers/registry.ts';
import { repositoryApiOf } from '../auth/repositoryAccess.ts';
import { imageAllowed } from '../builds/buildSettings.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { fingerprintOf, hostKeyFingerprints, newDeployKey } from './deployKey.ts';

type RepositoryRow = Database['site_repositories'];
type SiteRow = Database['sites'];

/** Where the forge sends the site's webhooks. */
const webhookUrlOf = (config: Config, siteId: string) =>
  new URL(`/api/v1/sites/${siteId}/repository/webhook`, config.url).href;

/**
 * How the keys this site set up at a code host are told from others there, renamed or not: its
 * id, which no other site of any installation shares (two sites may build one repository).
 */
const keyMarkOf = (siteId: string) => `(site ${siteId})`;

function toRepository(config: Config, row: RepositoryRow): Repository {
  return {
    url: row.url,
    productionBranch: row.production_branch,
    baseDirectory: row.base_directory,
    buildCommand: row.build_command,
    publishDirectory: row.publish_directory,
    image: row.image,
    branchDeploys: row.branch_deploys,
    branches: readJson<string[]>(row.branches),
    previews: row.previews === 1,
    watchPaths: readJson<string[]>(row.watch_paths),
    // The private half never leaves the server: only builds read it.
    deployKey: {
      publicKey: row.deploy_key_public,
      fingerprint: fingerprintOf(row.deploy_key_public),
      createdAt: row.deploy_key_created_at,
    },
    webhookUrl: webhookUrlOf(config, row.site_id),
    sshHostKey:
      row.ssh_known_hosts && row.ssh_known_at
        ? { fingerprints: hostKeyFingerprints(row.ssh_known_hosts), learntAt: row.ssh_known_at }
        : null,
    forgeToken: row.forge_token_sealed !== null,
    reportError:
      row.report_error && row.report_error_at ? { message: row.report_error, at: row.report_error_at } : null,
    connectedAt: row.connected_at,
    updatedAt: row.updated_at,
  };
}

/** A new deploy key's columns, named after the site so the forge's list of keys says whose it is. */
function deployKeyColumns(sealer: Sealer, siteName: string, at: string) {
  const key = newDeployKey(`wharf-${siteName}`);
  return {
    deploy_key_public: key.publicKey,
    deploy_key_sealed: sealer.seal(key.privateKey),
    deploy_key_created_at: at,
  };
}

async function repositoryRow(db: Executor, siteId: string) {
  return db.selectFrom('site_repositories').selectAll().where('site_id', '=', siteId).executeTakeFirst();
}

const needs = ['access', 'config', 'db', 'fastify', 'handle', 'sealer'] as const;

/** The repository a site builds from: connected, changed, its deploy key replaced, disconnected. */
function repositoryRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, sealer, access } = parts;

  parts.handle(api.getSiteRepository, access.siteViewer, async ({ site }) => {
    const row = await repositoryRow(db, site.id);
    return row ? toRepository(parts.config, row) : null;
  });

  parts.handle(api.setSiteRepository, access.siteManager, async ({ actor, site, body }) => {
    const builds = parts.config.builds;
    if (builds && !imageAllowed(builds, body.image))
      throw httpError(
        'BUILD_IMAGE_NOT_ALLOWED',
        `The image ${body.image} is not allowed on this installation: ask its operator`,
      );
    const at = now();
    const settings = {
      url: body.url,
      production_branch: body.productionBranch,
      base_directory: body.baseDirectory,
      build_command: body.buildCommand,
      publish_directory: body.publishDirectory,
      image: body.image,
      branch_deploys: body.branchDeploys,
      branches: JSON.stringify(body.branches),
      previews: body.previews ? 1 : 0,
      watch_paths: JSON.stringify(body.watchPaths),
      updated_at: at,
    };
    return db.transaction().execute(async (trx) => {
      const before = await repositoryRow(trx, site.id);
      // A host key learnt is the key of the URL's host: another URL learns its own.
      const moved = before && before.url !== body.url ? { ssh_known_hosts: null, ssh_known_at: null } : {};
      if (before)
        await trx
          .updateTable('site_repositories')
          .set({ ...settings, ...moved })
          .where('site_id', '=', site.id)
          .execute();
      else
        await trx
          .insertInto('site_repositories')
          .values({
            site_id: site.id,
            ...settings,
            ...deployKeyColumns(sealer, site.name, at),
            webhook_secret_sealed: sealer.seal(newSecret()),
            connected_at: at,
          })
          .execute();
      await recordEvent(trx, {
        name: before ? 'site_repository_updated' : 'site_repository_connected',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { url: body.url },
      });
      return toRepository(parts.config, (await repositoryRow(trx, site.id))!);
    });
  });

  parts.handle(api.renewDeployKey, access.siteManager, async ({ actor, site }) =>
    db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('site_repositories')
        .set(deployKeyColumns(sealer, site.name, now()))
        .where('site_id', '=', site.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
      await recordEvent(trx, {
        name: 'site_deploy_key_renewed',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { fingerprint: fingerprintOf(updated.deploy_key_public) },
      });
      return toRepository(parts.config, updated);
    }),
  );

  /** Changes some of a connected repository's columns, with the event that says so. */
  const changeRepository = (
    actor: Actor,
    site: SiteRow,
    columns: Partial<RepositoryRow>,
    event:
      | 'site_forge_token_set'
      | 'site_forge_token_removed'
      | 'site_ssh_host_key_forgotten'
      | 'site_webhook_secret_renewed'
      | 'site_repository_set_up_at_forge',
    data: Record<string, unknown> = {},
  ) =>
    db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('site_repositories')
        .set({ ...columns, updated_at: now() })
        .where('site_id', '=', site.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
      await recordEvent(trx, {
        name: event,
        actorId: userOf(actor),
        ...siteScope(site),
        data: { url: updated.url, ...data },
      });
      return toRepository(parts.config, updated);
    });

  // A new token, or none, clears the last report's failure, which it may have fixed.
  const noReportError = { report_error: null, report_error_at: null };
  parts.handle(api.setForgeToken, access.siteManager, ({ actor, site, body }) =>
    changeRepository(
      actor,
      site,
      { forge_token_sealed: sealer.seal(body.token), ...noReportError },
      'site_forge_token_set',
    ),
  );
  parts.handle(api.deleteForgeToken, access.siteManager, ({ actor, site }) =>
    changeRepository(actor, site, { forge_token_sealed: null, ...noReportError }, 'site_forge_token_removed'),
  );
  parts.handle(api.forgetSshHostKey, access.siteManager, ({ actor, site }) =>
    changeRepository(actor, site, { ssh_known_hosts: null, ssh_known_at: null }, 'site_ssh_host_key_forgotten'),
  );

  const providers = signInProvidersOf(parts);
  // The caller's account at the code host adds the webhook and the deploy key; builds report with
  // a copy of its token (when it does not expire) unless the site has a forge token of its own.
  parts.handle(api.setUpRepositoryAtForge, access.siteManager, async ({ actor, site, body }) => {
    const row = await repositoryRow(db, site.id);
    if (!row) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
    const forge = await repositoryApiOf(parts, providers, userOf(actor), body.provider);
    const found = await forge.guarded((call) => forge.dialect.find(call, body.repository), 'to show the repository');
    if (!isRepositoryOf(row.url, found))
      throw httpError('REPOSITORY_MISMATCH', `The site builds from ${row.url}, not from ${found.fullName}`);
    if (!found.canSetUp)
      throw httpError(
        'CODE_HOST_REFUSED',
        `Your account at ${forge.label} may not add webhooks and deploy keys to ${found.fullName}: ask one of its administrators`,
      );
    const setup = {
      webhookUrl: webhookUrlOf(parts.config, site.id),
      webhookSecret: sealer.open(row.webhook_secret_sealed),
      deployKey: row.deploy_key_public,
      title: `Wharf: ${site.name} ${keyMarkOf(site.id)}`,
      keyMark: keyMarkOf(site.id),
    };
    await forge.guarded(
      (call) => forge.dialect.setUp(call, found.fullName, setup),
      'to add the deploy key and the webhook',
      true,
    );
    // A token that expires (GitLab's, Gitea's) would stop the reports within hours: only a lasting one is copied.
    const lasting = forge.lastingToken();
    const reportsWithAccount = row.forge_token_sealed === null && lasting !== null;
    const columns = reportsWithAccount && lasting ? { forge_token_sealed: sealer.seal(lasting), ...noReportError } : {};
    return changeRepository(actor, site, columns, 'site_repository_set_up_at_forge', {
      provider: body.provider,
      repository: found.fullName,
      reportsWithAccount,
    });
  });

  parts.handle(api.getWebhookSecret, access.siteManager, async ({ site }) => {
    const row = await repositoryRow(db, site.id);
    if (!row) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
    return { secret: sealer.open(row.webhook_secret_sealed) };
  });

  parts.handle(api.renewWebhookSecret, access.siteManager, async ({ actor, site }) => {
    const secret = newSecret();
    await changeRepository(actor, site, { webhook_secret_sealed: sealer.seal(secret) }, 'site_webhook_secret_renewed');
    return { secret };
  });

  parts.handle(api.deleteSiteRepository, access.siteManager, async ({ actor, site }) => {
    await db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('site_repositories')
        .where('site_id', '=', site.id)
        .returning('url')
        .executeTakeFirst();
      if (!deleted) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
      await recordEvent(trx, {
        name: 'site_repository_disconnected',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { url: deleted.url },
      });
    });
  });
}

/** A site's connection to the repository it builds from (the first part of building on push). */
export const repositoriesFeature = feature({ name: 'repositories', needs, routes: repositoryRoutes });
