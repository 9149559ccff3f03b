import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { byIdLoader, findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { IntegrationInput, IntegrationsArgs } from './integration.input.js';
import { checkMetadata, checkOwner, metaconfigColumns, ownerTypeOf } from './integration.rules.js';
import { type IntegrationRow, integrations } from './integration.table.js';
import { Integration, IntegrationConnection } from './integration.type.js';
import { createSigningSecret } from '../webhooks/webhook.secrets.js';

export const IntegrationPayload = Payload(Integration, 'integration');
const integrationById = byIdLoader('integration.byId', integrations);

/** The columns of a create or an update, checked as the integration will be after it. */
async function checkIntegration(tx: Queryable, schoolId: number, input: IntegrationInput, current?: IntegrationRow) {
  const checks = new Checks();
  if (current) checks.notCleared('ownerType', input.ownerType).notCleared('ownerId', input.ownerId).notCleared('active', input.active);
  else checks.required('ownerType', input.ownerType).required('ownerId', input.ownerId);
  const ownerChanges = input.ownerType != null || input.ownerId != null;
  const owner = ownerChanges
    ? await checkOwner(tx, checks, schoolId, input.ownerType ?? current?.ownerType, input.ownerId ?? current?.ownerId)
    : null;
  const metadata = checkMetadata(checks, input.metadata);
  checks.throwIfAny();
  const values: Partial<typeof integrations.$inferInsert> = { ...(owner ?? {}), ...metaconfigColumns(input.metaconfig, current) };
  if (metadata !== undefined) values.metadata = metadata;
  if (input.active !== undefined && input.active !== null) values.active = input.active;
  if (input.type !== undefined) values.type = input.type;
  return values;
}

@Resolver(() => Integration)
export class IntegrationResolver {
  @Query(() => Integration)
  integration(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, integrationById, parseId(id, 'Integration'), 'Integration');
  }

  @Query(() => IntegrationConnection, { description: "The school's integrations, narrowed by owner and active." })
  integrations(@Args(() => IntegrationsArgs) args: IntegrationsArgs, @Ctx() ctx: Context) {
    const ownerType = args.ownerType ? (ownerTypeOf(args.ownerType) ?? args.ownerType) : null;
    return paginate(
      ctx,
      integrations,
      and(
        inSchool(ctx, integrations.schoolId),
        ownerType ? eq(integrations.ownerType, ownerType) : undefined,
        args.ownerId != null ? eq(integrations.ownerId, idOrNull(args.ownerId) ?? 0) : undefined,
        args.active != null ? eq(integrations.active, args.active) : undefined,
      ),
      args,
    );
  }

  @Mutation(() => IntegrationPayload)
  createIntegration(@Arg('input', () => IntegrationInput) input: IntegrationInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'integration', async (tx) => {
      const values = await checkIntegration(tx, schoolId, input);
      const [row] = await tx
        .insert(integrations)
        .values({ ...values, ownerType: values.ownerType!, ownerId: values.ownerId!, schoolId })
        .returning();
      // The webhook signing secret, shown this once (Integration.signingSecret).
      return { ...row, signingSecret: await createSigningSecret(tx, row) };
    });
  }

  @Mutation(() => IntegrationPayload)
  updateIntegration(@Arg('id', () => ID) id: string, @Arg('input', () => IntegrationInput) input: IntegrationInput, @Ctx() ctx: Context) {
    const integrationId = parseId(id, 'Integration');
    return mutate(ctx, 'integration', async (tx) => {
      const current = await lockOwned(tx, ctx, integrations, integrationId, 'Integration');
      const values = await checkIntegration(tx, current.schoolId, input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(integrations).set(values).where(eq(integrations.id, integrationId)).returning();
      return row;
    });
  }

  @Mutation(() => IntegrationPayload)
  deleteIntegration(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const integrationId = parseId(id, 'Integration');
    return mutate(ctx, 'integration', (tx) => deleteOwned(tx, ctx, integrations, integrationId, 'Integration'));
  }

  @FieldResolver(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The configuration keys with masked values (****, or **** and the last 4 characters of a long value); never the values.',
  })
  metaconfig(@Root() integration: IntegrationRow) {
    return integration.metaconfigPublic ?? null;
  }
}
