import { and, type SQL } from 'drizzle-orm';
import { inSchool, ownRows } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { addresses } from './address.table.js';
import { users } from './user.table.js';

/** The addresses the caller may see: its school's, and for a student credential only its own. */
export const visibleAddresses = (ctx: Context): SQL | undefined => and(inSchool(ctx, addresses.schoolId), ownRows(ctx, addresses.userId));

export const addressById = byIdLoader('address.byId', addresses, visibleAddresses);
export const addressesOfPerson = childrenLoader('person.addresses', addresses, addresses.userId, [], visibleAddresses);
/** People of the school whose addresses the caller reaches (a student credential: itself alone). */
export const addressOwnerById = byIdLoader('address.ownerById', users, (ctx) => and(inSchool(ctx, users.schoolId), ownRows(ctx, users.id)));
