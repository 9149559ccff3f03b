import 'reflect-metadata';
import { FieldResolver, Resolver, Root } from 'type-graphql';
import { writeOnlySecret } from '../../auth/secrets.js';
import { uniqueConstraintField } from '../../graphql/mutation.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { HostCredential } from './host-credential.type.js';
import { HostCredentialInput } from './library.input.js';
import { hostCredentialById, hostCredentialsOfLibrary, libraryById } from './library.loaders.js';
import { optionalText } from './library.rules.js';
import { type HostCredentialRow, hostCredentials, type LibraryRow } from './library.table.js';
import { Library } from './library.type.js';

uniqueConstraintField('host_credentials_library_id_host_key', 'host');

/** The columns a create or an update writes: host required on create, not clearable on update. */
function hostCredentialColumns(input: HostCredentialInput, current?: HostCredentialRow) {
  const checks = new Checks().present(!current, 'host', input.host);
  const host = input.host?.trim();
  if (host && /\s/.test(host)) checks.add('host', 'invalid', 'may not contain spaces');
  // The access token is write-only (auth/secrets.ts): its ciphertext and hint.
  const values: Partial<typeof hostCredentials.$inferInsert> = writeOnlySecret(checks, 'accessToken', input.accessToken, current);
  checks.throwIfAny();
  if (host) values.host = host;
  if (input.pids !== undefined) values.pids = optionalText(input.pids);
  return values;
}

@Resolver(() => HostCredential)
export class HostCredentialResolver extends resourceResolver({
  type: HostCredential,
  byId: hostCredentialById,
  parent: { arg: 'libraryId', type: 'Library', byId: libraryById, column: 'libraryId', inList: true },
  columns: (_tx, input: HostCredentialInput, { current }) => hostCredentialColumns(input, current),
  descriptions: {
    list: 'The host credentials of a library of the school.',
    create: 'Adds the credentials of a media host to a library; a host already there is taken.',
    update: 'Updates host credentials (see HostCredentialInput for the access token).',
  },
}) {
  @FieldResolver(() => Boolean, { description: 'Whether an access token is stored.' })
  hasAccessToken(@Root() credential: HostCredentialRow) {
    return credential.accessTokenCiphertext !== null;
  }
}

@Resolver(() => Library)
@RelationFields<LibraryRow>({
  hostCredentials: {
    type: () => [HostCredential],
    loader: hostCredentialsOfLibrary,
    key: 'id',
    nullable: true,
    description:
      'The host credentials of the library, in id order. Platform and admin credentials only: for any other role this field ' +
      'is null with a FORBIDDEN error (the rest of the library is still returned).',
  },
})
export class HostCredentialsOfLibraryResolver {}
