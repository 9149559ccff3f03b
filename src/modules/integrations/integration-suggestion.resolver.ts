import 'reflect-metadata';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, oneSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks, isHttpUrl } from '../../graphql/validation.js';
import { IntegrationSuggestionInput } from './integration.input.js';
import { integrationSuggestions } from './integration.table.js';
import { IntegrationSuggestion, IntegrationSuggestionConnection } from './integration.type.js';

export const IntegrationSuggestionPayload = Payload(IntegrationSuggestion, 'integrationSuggestion');

@Resolver(() => IntegrationSuggestion)
export class IntegrationSuggestionResolver {
  @Mutation(() => IntegrationSuggestionPayload, {
    description:
      'Sends the platform a suggestion of a new integration; any credential may. REST: POST /integrations/suggestions with a ' +
      '`suggestion` hash or name, description and url at the top level.',
  })
  suggestIntegration(@Arg('input', () => IntegrationSuggestionInput) input: IntegrationSuggestionInput, @Ctx() ctx: Context) {
    return mutate(ctx, 'integrationSuggestion', async (tx) => {
      const checks = new Checks().required('name', input.name);
      const url = input.url?.trim() || null;
      if (url && !isHttpUrl(url)) checks.add('url', 'invalid', 'must be an http or https address');
      checks.throwIfAny();
      const [row] = await tx
        .insert(integrationSuggestions)
        .values({
          schoolId: oneSchool(ctx),
          name: input.name!.trim(),
          description: input.description ?? null,
          url,
          createdByTokenId: ctx.credential!.tokenId,
        })
        .returning();
      return row;
    });
  }

  @Query(() => IntegrationSuggestionConnection, { description: 'The suggestions received (platform credentials only; X-School-Id narrows to one school).' })
  integrationSuggestions(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, integrationSuggestions, inSchool(ctx, integrationSuggestions.schoolId), args);
  }
}
