import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { credentialsChanged } from '../../auth/credential-cache.js';
import { inSchool, inWriteSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { emitEvent } from '../events/events.js';
import { users } from '../users/user.table.js';
import { ownPersonFor } from './privacy.access.js';
import { erasePersonalData, exportPersonalData } from './privacy.data.js';
import { personalDataErasures } from './privacy.table.js';
import { PersonErasure } from './privacy.type.js';

const ErasePersonPayload = Payload(PersonErasure, 'erasure', 'ErasePersonPayload');

/** The person `userId` as the caller may reach them through `operation` (its own user for an `own` role), or a 404. */
async function reachablePerson(db: Queryable, ctx: Context, userId: string, operation: string, write: boolean) {
  const id = parseId(userId, 'User');
  const own = ownPersonFor(ctx, operation);
  const where = and(eq(users.id, id), write ? inWriteSchool(ctx, users.schoolId) : inSchool(ctx, users.schoolId), own === null ? undefined : eq(users.id, own));
  const query = db.select().from(users).where(where);
  const [row] = await (write ? query.for('update') : query);
  if (!row) throw notFound('User');
  return row;
}

@Resolver()
export class PrivacyResolver {
  @Query(() => GraphQLJSONObject, {
    description:
      "Everything the service holds about a person, as one JSON document (LGPD art. 18, GDPR art. 15 and 20): profile, enrollments, progress, attempts, orders, messages, notifications, posts, credentials' metadata. The person itself, or the school's managers.",
  })
  exportPerson(@Arg('userId', () => ID) userId: string, @Ctx() ctx: Context) {
    // One snapshot: the document never mixes two moments.
    return ctx.db.transaction(
      async (tx) => exportPersonalData(tx, await reachablePerson(tx, ctx, userId, 'Query.exportPerson', false), ctx.now()),
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  @Mutation(() => ErasePersonPayload, {
    description:
      "Erases a person's personal data in one transaction (LGPD art. 18, GDPR art. 17): anonymised in place, their credentials revoked, the records the school must keep (orders, invoices, payments, certificates) kept without it. Once: a second request answers alreadyErased.",
  })
  erasePerson(@Arg('userId', () => ID) userId: string, @Ctx() ctx: Context) {
    return mutate(ctx, 'erasure', async (tx): Promise<PersonErasure> => {
      // The row lock makes two erasures of one person run one after the other.
      const user = await reachablePerson(tx, ctx, userId, 'Mutation.erasePerson', true);
      const [done] = await tx.select().from(personalDataErasures).where(eq(personalDataErasures.userId, user.id));
      if (done) return { userId: user.id, erasedAt: done.erasedAt, alreadyErased: true, revokedTokens: 0 };
      const erasedAt = ctx.now();
      const { revokedTokenIds } = await erasePersonalData(tx, user);
      await tx.insert(personalDataErasures).values({ schoolId: user.schoolId, userId: user.id, erasedByTokenId: ctx.credential?.tokenId ?? null, erasedAt });
      // Every instance drops its cached credentials: the person's tokens answer 401 at once.
      await credentialsChanged(ctx.db, tx);
      await emitEvent(tx, { schoolId: user.schoolId, name: 'user.erased', subjectType: 'User', subjectId: user.id, payload: { userId: user.id, revokedTokenIds } });
      return { userId: user.id, erasedAt, alreadyErased: false, revokedTokens: revokedTokenIds.length };
    });
  }
}
