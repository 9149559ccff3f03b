import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * The drizzle database both drivers give: code is written against this type only. Its own file, so
 * db/client.ts (which runs the data migrations) and db/data-migrations.ts both read it without a circle.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A database or a transaction: what queries run on. */
export type Queryable = Db | Parameters<Parameters<Db['transaction']>[0]>[0];
