import { parseArgs } from 'node:util';
import { backup } from '../backup/backup.ts';
import { BackupError } from '../backup/manifest.ts';
import { restore } from '../backup/restore.ts';
import { loadConfig, loadDotEnv } from '../config/load.ts';
import { type Config, ConfigError } from '../config/types.ts';
import { openDb } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { resolveSecret, Sealer } from '../lib/secrets.ts';
import { createLogger } from '../logging.ts';
import { HandOverRefused, handOverFirstAdmin } from '../modules/auth/handOver.ts';
import { openBlobStore } from '../storage/openBlobStore.ts';

const USAGE = `Usage:
  wharf-server backup DIR            Copy the database, the stored files and the secret into DIR.
                                     Safe while Wharf runs; a repeated backup into the same DIR
                                     copies only new files.
  wharf-server restore DIR [--force] Put the backup in DIR back into WHARF_DATA_DIR (or
                                     DATABASE_URL) and WHARF_STORAGE, whichever database and store
                                     it came from. Stop Wharf first; --force replaces what is there.
  wharf-server hand-over-admin USER  Give the first-start admin's account (its organizations, tokens
                                     and history) to USER, a name WHARF_USERS lists that has not
                                     signed in yet; admin's generated password stops working.

Both read the same environment (and .env) as Wharf itself.`;

const say = (line: string) => console.log(line);

async function run(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const [command, dir, ...rest] = positionals;
  if (values.help) return say(USAGE);
  if (!['backup', 'restore', 'hand-over-admin'].includes(command ?? '') || !dir || rest.length > 0) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  loadDotEnv();
  const config = loadConfig();
  if (command === 'hand-over-admin') return handOver(config, dir);
  const blobs = openBlobStore(config, createLogger(config.logLevel));
  if (command === 'backup') {
    const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    try {
      // The hold that keeps collection off is a table of its own: an older database gets it first.
      await migrate(db, () => new Sealer(resolveSecret(config.secret, config.dataDir)));
      const manifest = await backup({ config, db, blobs, say }, dir);
      say(
        `Backup complete in ${dir}: ${manifest.blobs.count} files, ${(manifest.blobs.bytes / 1024 / 1024).toFixed(1)} MiB`,
      );
      if (manifest.secret === 'environment')
        say('Keep WHARF_SECRET with it: the backup does not hold the secret from the environment');
    } finally {
      await db.destroy();
    }
  } else {
    await restore({ config, blobs, force: values.force, say }, dir);
    say(`Restore complete: start Wharf as before`);
  }
}

async function handOver(config: Config, to: string) {
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrate(db, () => new Sealer(resolveSecret(config.secret, config.dataDir)));
    const { organizations } = await handOverFirstAdmin(db, config.users, to);
    say(
      `"${to}" now signs in to the first admin's account (${organizations} organization${organizations === 1 ? '' : 's'})`,
    );
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof ConfigError || error instanceof HandOverRefused;
  console.error(known ? (error as Error).message : error);
  process.exitCode = 1;
});
