import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { lockOwned } from '../../graphql/owned.js';
import { integrations } from '../integrations/integration.table.js';

/** The integration of the school the write goes to, locked; another school's is a 404. */
export const owned = (tx: Queryable, ctx: Context, id: number) => lockOwned(tx, ctx, integrations, id, 'Integration');
