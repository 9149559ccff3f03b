import 'reflect-metadata';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { Arg, Args, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { issueCredential } from '../../auth/credential.js';
import { inSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { apiTokens } from '../../auth/api-token.table.js';
import { revokeSessions, revokeTokens } from '../identity/revocation.js';
import { sessions } from '../identity/session.table.js';
import { checkGrant, grantOfCaller } from './api-token.rules.js';
import { ApiToken, ApiTokenConnection, ApiTokenInput, ApiTokensArgs } from './api-token.type.js';

@ObjectType({ description: 'A new credential, and its token: shown here once, never again.' })
class CreateApiTokenPayload extends Payload(ApiToken, 'apiToken') {
  @Field(() => String, { nullable: true, description: 'The bearer token (Authorization: Bearer <token>). Store it now: only its digest is kept.' })
  token!: string | null;
}

const RevokeApiTokenPayload = Payload(ApiToken, 'apiToken', 'RevokeApiTokenPayload');

/**
 * Credentials: listed, made and revoked by the platform (any school's; `npm run token` calls this on a
 * running service) and by a school's admin (its own school's, never a platform token).
 */
@Resolver(() => ApiToken)
export class ApiTokenResolver {
  @Query(() => ApiTokenConnection, { description: "The school's credentials (the platform's: every school's, or the X-School-Id one's), never their secrets." })
  apiTokens(@Args(() => ApiTokensArgs) args: ApiTokensArgs, @Ctx() ctx: Context) {
    const userId = args.userId == null ? undefined : (idOrNull(args.userId) ?? 0);
    const now = ctx.now();
    const working = args.includeInactive ? undefined : and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));
    return paginate(ctx, apiTokens, and(inSchool(ctx, apiTokens.schoolId), userId === undefined ? undefined : eq(apiTokens.userId, userId), working), args, { count: true });
  }

  @Mutation(() => CreateApiTokenPayload, { description: "Creates a credential: the platform's of any role and school, an admin's of its own school (no platform token)." })
  async createApiToken(@Arg('input', () => ApiTokenInput) input: ApiTokenInput, @Ctx() ctx: Context) {
    const wanted = grantOfCaller(ctx, input);
    let token: string | null = null;
    const result = await mutate(ctx, 'apiToken', async (tx) => {
      const issued = await issueCredential(tx, { ...(await checkGrant(tx, wanted, ctx.now())), createdAt: ctx.now() });
      token = issued.token;
      return issued.row;
    });
    return { ...result, token: result.errors.length ? null : token };
  }

  @Mutation(() => RevokeApiTokenPayload, { description: "Revokes a credential at once, on every instance (the platform any, an admin its school's); a session's access token takes its session (and refresh token) along. Revoking twice keeps the first time." })
  revokeApiToken(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return mutate(ctx, 'apiToken', async (tx) => {
      const tokenId = idOrNull(id);
      if (tokenId === null) throw notFound('ApiToken');
      const mine = and(eq(apiTokens.id, tokenId), inSchool(ctx, apiTokens.schoolId))!;
      const [row] = await tx.select().from(apiTokens).where(mine).for('update');
      if (!row) throw notFound('ApiToken');
      // Every instance drops the credentials it cached: the token is refused at once. A session's
      // access token takes its session along: its refresh token would otherwise mint another.
      if (row.sessionId) await revokeSessions(ctx.db, tx, eq(sessions.id, row.sessionId), ctx.now(), 'revoked');
      await revokeTokens(ctx.db, tx, mine, ctx.now(), { reason: 'revoked', userId: row.userId });
      const [revoked] = await tx.select().from(apiTokens).where(mine);
      return revoked;
    });
  }
}
