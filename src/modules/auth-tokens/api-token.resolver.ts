import 'reflect-metadata';
import { and, eq, isNull } from 'drizzle-orm';
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { credentialsChanged } from '../../auth/credential-cache.js';
import { issueCredential } from '../../auth/credential.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { apiTokens } from '../../auth/api-token.table.js';
import { checkGrant } from './api-token.rules.js';
import { ApiToken, ApiTokenInput } from './api-token.type.js';

@ObjectType({ description: 'A new credential, and its token: shown here once, never again.' })
class CreateApiTokenPayload extends Payload(ApiToken, 'apiToken') {
  @Field(() => String, { nullable: true, description: 'The bearer token (Authorization: Bearer <token>). Store it now: only its digest is kept.' })
  token!: string | null;
}

const RevokeApiTokenPayload = Payload(ApiToken, 'apiToken', 'RevokeApiTokenPayload');

/** Credentials, made and revoked by the platform (`npm run token` calls this on a running service). */
@Resolver(() => ApiToken)
export class ApiTokenResolver {
  @Mutation(() => CreateApiTokenPayload, { description: 'Creates a credential (platform credentials only). GraphQL only: the spec has no route for it.' })
  async createApiToken(@Arg('input', () => ApiTokenInput) input: ApiTokenInput, @Ctx() ctx: Context) {
    let token: string | null = null;
    const result = await mutate(ctx, 'apiToken', async (tx) => {
      const issued = await issueCredential(tx, await checkGrant(tx, input));
      token = issued.token;
      return issued.row;
    });
    return { ...result, token: result.errors.length ? null : token };
  }

  @Mutation(() => RevokeApiTokenPayload, { description: 'Revokes a credential at once (platform credentials only); revoking twice keeps the first time.' })
  revokeApiToken(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return mutate(ctx, 'apiToken', async (tx) => {
      const tokenId = idOrNull(id);
      if (tokenId === null) throw notFound('ApiToken');
      await tx.update(apiTokens).set({ revokedAt: new Date() }).where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)));
      // Every instance drops the credentials it cached: the token is refused at once.
      await credentialsChanged(ctx.db, tx);
      const [row] = await tx.select().from(apiTokens).where(eq(apiTokens.id, tokenId));
      if (!row) throw notFound('ApiToken');
      return row;
    });
  }
}
