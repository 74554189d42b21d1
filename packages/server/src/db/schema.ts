import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import type { AccountTables } from './tables/accounts.ts';
import type { OperationTables } from './tables/operations.ts';
import type { ReleaseTables } from './tables/releases.ts';
import type { SiteTables } from './tables/sites.ts';

/** Every table of Wharf's database, by the part of the product it belongs to (tables/). */
export interface Database extends AccountTables, SiteTables, ReleaseTables, OperationTables {}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: queries accept either. */
export type Executor = Kysely<Database> | KyselyTransaction<Database>;
export type Transaction = KyselyTransaction<Database>;
