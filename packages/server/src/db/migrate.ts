import { type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import type { Sealer } from '../lib/secrets.ts';
import * as initial from './migrations/001_initial.ts';
import * as releases from './migrations/002_releases.ts';
import * as edge from './migrations/003_edge.ts';
import * as eventTime from './migrations/004_event_time.ts';
import * as finishedDeploys from './migrations/005_finished_deploys.ts';
import * as pageViews from './migrations/006_page_views.ts';
import * as orgBlobs from './migrations/007_org_blobs.ts';
import * as idempotencyKeys from './migrations/008_idempotency_keys.ts';
import * as housekeepingHolds from './migrations/009_housekeeping_holds.ts';
import * as dispatch from './migrations/010_dispatch.ts';
import * as formSubmissions from './migrations/011_form_submissions.ts';
import { mailJobs } from './migrations/012_mail_jobs.ts';
import * as domainOwnership from './migrations/013_domain_ownership.ts';
import * as tlsCertificates from './migrations/014_tls_certificates.ts';
import * as identities from './migrations/015_identities.ts';
import * as releaseRules from './migrations/016_release_rules.ts';
import * as retention from './migrations/017_retention.ts';
import * as listIndexes from './migrations/018_list_indexes.ts';
import * as blobVariants from './migrations/019_blob_variants.ts';
import * as installation from './migrations/020_installation.ts';
import { sealedPrivateKeys } from './migrations/021_sealed_private_keys.ts';
import * as domainClaims from './migrations/022_domain_claims.ts';
import * as basicAuthHashes from './migrations/023_basic_auth_hashes.ts';
import * as siteForms from './migrations/024_site_forms.ts';
import * as deployForce from './migrations/025_deploy_force.ts';
import * as deadBlobs from './migrations/026_dead_blobs.ts';
import * as cliLogins from './migrations/027_cli_logins.ts';
import * as releaseAddresses from './migrations/028_release_addresses.ts';
import * as failedDeploys from './migrations/029_failed_deploys.ts';
import * as branchTraffic from './migrations/030_branch_traffic.ts';
import * as releasePasswords from './migrations/031_release_passwords.ts';
import * as siteRepositories from './migrations/032_site_repositories.ts';
import * as builds from './migrations/033_builds.ts';
import * as buildVariables from './migrations/034_build_variables.ts';
import { webhooks } from './migrations/035_webhooks.ts';
import * as buildReports from './migrations/036_build_reports.ts';
import * as repositoryAccess from './migrations/037_repository_access.ts';
import * as cliLoginClaimKey from './migrations/038_cli_login_claim_key.ts';
import * as siteFormsRevision from './migrations/039_site_forms_revision.ts';
import * as finalizeByChange from './migrations/040_finalize_by_change.ts';
import type { Db } from './schema.ts';
import { withSchemaIntrospection } from './schemaIntrospection.ts';
import { mustBeStartable } from './startable.ts';

/**
 * Migrations in order; a new one is appended here and never edited after it ships. A migration
 * that seals data (012, 021) gets the installation's sealer, made only when it is needed.
 */
const migrationsWith = (sealer: () => Sealer): Record<string, Migration> => ({
  '001_initial': initial,
  '002_releases': releases,
  '003_edge': edge,
  '004_event_time': eventTime,
  '005_finished_deploys': finishedDeploys,
  '006_page_views': pageViews,
  '007_org_blobs': orgBlobs,
  '008_idempotency_keys': idempotencyKeys,
  '009_housekeeping_holds': housekeepingHolds,
  '010_dispatch': dispatch,
  '011_form_submissions': formSubmissions,
  '012_mail_jobs': mailJobs(sealer),
  '013_domain_ownership': domainOwnership,
  '014_tls_certificates': tlsCertificates,
  '015_identities': identities,
  '016_release_rules': releaseRules,
  '017_retention': retention,
  '018_list_indexes': listIndexes,
  '019_blob_variants': blobVariants,
  '020_installation': installation,
  '021_sealed_private_keys': sealedPrivateKeys(sealer),
  '022_domain_claims': domainClaims,
  '023_basic_auth_hashes': basicAuthHashes,
  '024_site_forms': siteForms,
  '025_deploy_force': deployForce,
  '026_dead_blobs': deadBlobs,
  '027_cli_logins': cliLogins,
  '028_release_addresses': releaseAddresses,
  '029_failed_deploys': failedDeploys,
  '030_branch_traffic': branchTraffic,
  '031_release_passwords': releasePasswords,
  '032_site_repositories': siteRepositories,
  '033_builds': builds,
  '034_build_variables': buildVariables,
  '035_webhooks': webhooks(sealer),
  '036_build_reports': buildReports,
  '037_repository_access': repositoryAccess,
  '038_cli_login_claim_key': cliLoginClaimKey,
  '039_site_forms_revision': siteFormsRevision,
  '040_finalize_by_change': finalizeByChange,
});

/**
 * Brings the database to the latest migration (or up to `target`, which tests of a migration use),
 * after refusing one no migration should touch (`startable.ts`).
 */
export async function migrate(db: Db, sealer: () => Sealer, target?: string) {
  await mustBeStartable(db);
  await runMigrations(db, sealer, { target });
}

/** The names of the migrations this Wharf knows, oldest first. */
export const migrationNames = () =>
  Object.keys(
    migrationsWith(() => {
      throw new Error('Migrations listed by name seal nothing');
    }),
  );

/**
 * Runs the migrations up to `target` (the latest by default), without `migrate`'s check: a restore
 * makes the tables of a database it has marked as unfinished. `inOpenTransaction`: the caller holds
 * a transaction open on `db`'s one connection, and the migrator opens none of its own (one would
 * commit the caller's).
 */
export async function runMigrations(
  db: Db,
  sealer: () => Sealer,
  options: { target?: string; inOpenTransaction?: boolean },
) {
  const { target, inOpenTransaction = false } = options;
  const provider: MigrationProvider = { getMigrations: async () => migrationsWith(sealer) };
  const migrationTableSchema = await postgresSchemaOf(db);
  const migrator = new Migrator({
    db: withSchemaIntrospection(db, migrationTableSchema),
    provider,
    migrationTableSchema,
    disableTransactions: inOpenTransaction,
  });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  if (!error) return;
  const failed = results?.find((result) => result.status === 'Error');
  throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`);
}

/**
 * The schema Wharf's tables live in on PostgreSQL. The migrator must be told: otherwise it takes
 * a migration table of any schema in the database (another Wharf's, another application's) as
 * its own and skips creating it where it works.
 */
async function postgresSchemaOf(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}
