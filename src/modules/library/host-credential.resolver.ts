import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { encryptSecret, secretHint } from '../../auth/secrets.js';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { HostCredential, HostCredentialConnection } from './host-credential.type.js';
import { HostCredentialInput } from './library.input.js';
import { hostCredentialById, hostCredentialsOfLibrary, libraryById } from './library.loaders.js';
import { optionalText } from './library.rules.js';
import { type HostCredentialRow, hostCredentials, type LibraryRow } from './library.table.js';
import { Library } from './library.type.js';

export const HostCredentialPayload = Payload(HostCredential, 'hostCredential');
uniqueConstraintField('host_credentials_library_id_host_key', 'host');

type TokenColumns = Partial<Pick<HostCredentialRow, 'accessTokenCiphertext' | 'accessTokenHint'>>;

/**
 * The stored token columns for a given access token: undefined keeps, null or '' clears, the stored
 * hint sent back keeps (clients send a fetched object back), any other value replaces. A masked
 * value that is not the stored hint is refused: it would store the mask as the token.
 */
function accessTokenColumns(checks: Checks, given: string | null | undefined, current?: HostCredentialRow): TokenColumns {
  if (given === undefined) return {};
  const token = given?.trim() ?? '';
  if (token === '') return { accessTokenCiphertext: null, accessTokenHint: null };
  if (current?.accessTokenCiphertext && token === current.accessTokenHint) return {};
  if (token.startsWith('****')) {
    checks.add('accessToken', 'invalid', 'is a masked hint, not a token: send the token itself');
    return {};
  }
  return { accessTokenCiphertext: encryptSecret(token), accessTokenHint: secretHint(token) };
}

/** The columns a create or an update writes: host required on create, not clearable on update. */
function hostCredentialColumns(input: HostCredentialInput, current?: HostCredentialRow) {
  const checks = new Checks();
  if (current) checks.notCleared('host', input.host);
  else checks.required('host', input.host);
  const host = input.host?.trim();
  if (host && /\s/.test(host)) checks.add('host', 'invalid', 'may not contain spaces');
  const values: Partial<typeof hostCredentials.$inferInsert> = accessTokenColumns(checks, input.accessToken, current);
  checks.throwIfAny();
  if (host) values.host = host;
  if (input.pids !== undefined) values.pids = optionalText(input.pids);
  return values;
}

@Resolver(() => HostCredential)
export class HostCredentialResolver {
  @Query(() => HostCredential)
  hostCredential(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, hostCredentialById, parseId(id, 'HostCredential'), 'HostCredential');
  }

  @Query(() => HostCredentialConnection, { description: 'The host credentials of a library of the school.' })
  async hostCredentials(
    @Arg('libraryId', () => ID) libraryId: string,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    const library = await findOr404(ctx, libraryById, parseId(libraryId, 'Library'), 'Library');
    return paginate(ctx, hostCredentials, and(eq(hostCredentials.libraryId, library.id), inSchool(ctx, hostCredentials.schoolId)), args);
  }

  @Mutation(() => HostCredentialPayload, { description: 'Adds the credentials of a media host to a library; a host already there is taken.' })
  async createHostCredential(
    @Arg('libraryId', () => ID) libraryId: string,
    @Arg('input', () => HostCredentialInput) input: HostCredentialInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const library = await findOr404(ctx, libraryById, parseId(libraryId, 'Library'), 'Library');
    return mutate(ctx, 'hostCredential', async (tx) => {
      const values = hostCredentialColumns(input);
      const [row] = await tx
        .insert(hostCredentials)
        .values({ ...values, host: values.host!, schoolId, libraryId: library.id })
        .returning();
      return row;
    });
  }

  @Mutation(() => HostCredentialPayload, { description: 'Updates host credentials (see HostCredentialInput for the access token).' })
  updateHostCredential(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => HostCredentialInput) input: HostCredentialInput,
    @Ctx() ctx: Context,
  ) {
    const credentialId = parseId(id, 'HostCredential');
    return mutate(ctx, 'hostCredential', async (tx) => {
      const current = await lockOwned(tx, ctx, hostCredentials, credentialId, 'HostCredential');
      const changes = hostCredentialColumns(input, current);
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(hostCredentials).set(changes).where(eq(hostCredentials.id, credentialId)).returning();
      return row;
    });
  }

  @Mutation(() => HostCredentialPayload)
  deleteHostCredential(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const credentialId = parseId(id, 'HostCredential');
    return mutate(ctx, 'hostCredential', (tx) => deleteOwned(tx, ctx, hostCredentials, credentialId, 'HostCredential'));
  }

  @FieldResolver(() => Boolean, { description: 'Whether an access token is stored.' })
  hasAccessToken(@Root() credential: HostCredentialRow) {
    return credential.accessTokenCiphertext !== null;
  }
}

@Resolver(() => Library)
export class HostCredentialsOfLibraryResolver {
  @FieldResolver(() => [HostCredential], {
    nullable: true,
    description:
      'The host credentials of the library, in id order. Platform and admin credentials only: for any other role this field ' +
      'is null with a FORBIDDEN error (the rest of the library is still returned).',
  })
  hostCredentials(@Root() library: LibraryRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(hostCredentialsOfLibrary).load(library.id);
  }
}
