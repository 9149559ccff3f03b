import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { GraphQLJSONObject } from 'graphql-scalars';
import { FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idMatch } from '../../graphql/filters.js';
import { byIdLoader } from '../../graphql/loaders.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { IntegrationInput, IntegrationsArgs } from './integration.input.js';
import { checkMetaconfigUrl, checkMetadata, checkOwner, metaconfigChange, metaconfigColumns, ownerTypeOf } from './integration.rules.js';
import { type IntegrationRow, integrations } from './integration.table.js';
import { Integration } from './integration.type.js';
import { createSigningSecret } from '../webhooks/webhook.secrets.js';

const integrationById = byIdLoader('integration.byId', integrations);

/** The columns of a create or an update, checked as the integration will be after it. */
async function checkIntegration(tx: Queryable, ctx: Context, schoolId: number, input: IntegrationInput, current?: IntegrationRow) {
  const checks = new Checks().present(!current, 'ownerType', input.ownerType).present(!current, 'ownerId', input.ownerId);
  if (current) checks.notCleared('active', input.active);
  const ownerChanges = input.ownerType != null || input.ownerId != null;
  const owner = ownerChanges
    ? await checkOwner(tx, checks, schoolId, input.ownerType ?? current?.ownerType, input.ownerId ?? current?.ownerId)
    : null;
  const metadata = checkMetadata(checks, input.metadata);
  const metaconfig = metaconfigChange(input.metaconfig, current);
  await checkMetaconfigUrl(checks, metaconfig, ctx.webhooksAllowPrivateNetworks ?? false);
  checks.throwIfAny();
  const values: Partial<typeof integrations.$inferInsert> = { ...(owner ?? {}), ...metaconfigColumns(metaconfig) };
  if (metadata !== undefined) values.metadata = metadata;
  if (input.active !== undefined && input.active !== null) values.active = input.active;
  if (input.type !== undefined) values.type = input.type;
  return values;
}

@Resolver(() => Integration)
export class IntegrationResolver extends resourceResolver({
  type: Integration,
  byId: integrationById,
  columns: (tx, input: IntegrationInput, { ctx, schoolId, current }) => checkIntegration(tx, ctx, schoolId, input, current),
  // The webhook signing secret, shown this once (Integration.signingSecret).
  created: async (tx, row) => ({ ...row, signingSecret: await createSigningSecret(tx, row) }),
  listArgs: IntegrationsArgs,
  listWhere: (_ctx, args: IntegrationsArgs) => {
    const ownerType = args.ownerType ? (ownerTypeOf(args.ownerType) ?? args.ownerType) : null;
    return and(
      ownerType ? eq(integrations.ownerType, ownerType) : undefined,
      idMatch(integrations.ownerId, args.ownerId),
      args.active != null ? eq(integrations.active, args.active) : undefined,
    );
  },
  descriptions: { list: "The school's integrations, narrowed by owner and active." },
}) {
  @FieldResolver(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The configuration keys with masked values (****, or **** and the last 4 characters of a long value); never the values.',
  })
  metaconfig(@Root() integration: IntegrationRow) {
    return integration.metaconfigPublic ?? null;
  }
}
