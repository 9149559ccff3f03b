import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/auth/secrets.js';
import { errorCodes, ids, libraryFixtures } from './support/library.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of HostCredential: queries, payload mutations, the write-only access token,
// roles (platform and admin only), tenancy and Library.hostCredentials.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof libraryFixtures>;

twoSchools('GraphQL Host Credentials', 'GraphQL Host Credentials Other', (w) => {
  ({ service, school, other } = w);
  f = libraryFixtures(service);
});

const TOKEN = 'bunny-stream-key-ABCDEFGH7788';
const FIELDS = 'id schoolId libraryId host pids accessTokenHint hasAccessToken createdAt updatedAt';
const createQ = `mutation ($libraryId: ID!, $input: HostCredentialInput!) {
  createHostCredential(libraryId: $libraryId, input: $input) { hostCredential { ${FIELDS} } errors { field code message } } }`;
const updateQ = `mutation ($id: ID!, $input: HostCredentialInput!) {
  updateHostCredential(id: $id, input: $input) { hostCredential { ${FIELDS} } errors { field code message } } }`;
const deleteQ = graphql(`mutation ($id: ID!) { deleteHostCredential(id: $id) { hostCredential { id } errors { field code } } }`);
const showQ = `query ($id: ID!) { hostCredential(id: $id) { ${FIELDS} } }`;
const listQ = graphql(`query ($libraryId: ID!) { hostCredentials(libraryId: $libraryId, first: 100) { totalCount nodes { id host accessTokenHint } } }`);

let hosts = 0;
const newHost = () => `gql-host${++hosts}.example.com`;

async function create(input: Record<string, unknown> = {}, s: TestSchool = school, libraryId: number = s.libraryId) {
  const res = await s.admin.graphql(createQ, { libraryId, input: { host: newHost(), ...input } });
  expect(res.data.createHostCredential.errors, JSON.stringify(res)).toEqual([]);
  return res.data.createHostCredential.hostCredential;
}
const stored = async (id: string) => f.credentialRow(Number(id));

describe('createHostCredential', () => {
  it('given a host and a token, then the credential carries a hint and the token is stored encrypted, never returned', async () => {
    const host = newHost();
    const res = await school.admin.graphql(createQ, { libraryId: school.libraryId, input: { host, accessToken: TOKEN, pids: '42' } });
    expect(res.data.createHostCredential).toMatchObject({
      errors: [],
      hostCredential: { schoolId: String(school.id), libraryId: String(school.libraryId), host, pids: '42', accessTokenHint: '****7788', hasAccessToken: true },
    });
    expect(JSON.stringify(res)).not.toContain(TOKEN);
    const row = await stored(res.data.createHostCredential.hostCredential.id);
    expect(row.accessTokenCiphertext).not.toContain(TOKEN);
    expect(decryptSecret(row.accessTokenCiphertext!)).toBe(TOKEN);
  });

  it('given no host, then a blank UserError and nothing written', async () => {
    const res = await f.expectNoCredentialWrite(() => school.admin.graphql(createQ, { libraryId: school.libraryId, input: { accessToken: TOKEN } }));
    expect(res.data.createHostCredential).toEqual({ hostCredential: null, errors: [{ field: ['host'], code: 'blank', message: "can't be blank" }] });
  });

  it('given a host already in the library, then taken on host', async () => {
    const first = await create();
    const res = await f.expectNoCredentialWrite(() => school.admin.graphql(createQ, { libraryId: school.libraryId, input: { host: ` ${first.host.toUpperCase()} ` } }));
    expect(res.data.createHostCredential.errors).toEqual([{ field: ['host'], code: 'taken', message: 'has already been taken' }]);
  });

  it("given another school's library, then NOT_FOUND and nothing written", async () => {
    const res = await f.expectNoCredentialWrite(() => school.admin.graphql(createQ, { libraryId: other.libraryId, input: { host: newHost() } }));
    expect(errorCodes(res)).toEqual(['NOT_FOUND']);
  });
});

describe('updateHostCredential', () => {
  it('keeps the token when the input omits it or sends the hint back; replaces it with a new value', async () => {
    const made = await create({ accessToken: TOKEN });
    const ciphertext = (await stored(made.id)).accessTokenCiphertext;
    const omitted = await school.admin.graphql(updateQ, { id: made.id, input: { pids: '1,2' } });
    expect(omitted.data.updateHostCredential.hostCredential).toMatchObject({ pids: '1,2', accessTokenHint: '****7788', hasAccessToken: true });
    const sentBack = await school.admin.graphql(updateQ, { id: made.id, input: { host: made.host, accessToken: made.accessTokenHint, pids: '1,2' } });
    expect(sentBack.data.updateHostCredential.errors).toEqual([]);
    expect((await stored(made.id)).accessTokenCiphertext).toBe(ciphertext);

    const replaced = await school.admin.graphql(updateQ, { id: made.id, input: { accessToken: 'another-secret-token-0000' } });
    expect(replaced.data.updateHostCredential.hostCredential).toMatchObject({ accessTokenHint: '****0000', hasAccessToken: true });
    expect(JSON.stringify(replaced)).not.toContain('another-secret-token-0000');
    expect(decryptSecret((await stored(made.id)).accessTokenCiphertext!)).toBe('another-secret-token-0000');
  });

  it('null or an empty string clears the token', async () => {
    for (const accessToken of [null, '']) {
      const made = await create({ accessToken: TOKEN });
      const res = await school.admin.graphql(updateQ, { id: made.id, input: { accessToken } });
      expect(res.data.updateHostCredential.hostCredential).toMatchObject({ accessTokenHint: null, hasAccessToken: false });
      expect(await stored(made.id)).toMatchObject({ accessTokenCiphertext: null, accessTokenHint: null });
    }
  });

  it('a host set to null is blank, a taken host is taken; nothing written', async () => {
    const a = await create({ accessToken: TOKEN });
    const b = await create();
    const blank = await f.expectNoCredentialWrite(() => school.admin.graphql(updateQ, { id: a.id, input: { host: null, accessToken: null } }));
    expect(blank.data.updateHostCredential.errors).toEqual([{ field: ['host'], code: 'blank', message: "can't be blank" }]);
    const taken = await f.expectNoCredentialWrite(() => school.admin.graphql(updateQ, { id: b.id, input: { host: a.host } }));
    expect(taken.data.updateHostCredential.errors.map((e: any) => [e.field, e.code])).toEqual([[['host'], 'taken']]);
  });

  it("another school's credential is NOT_FOUND and untouched", async () => {
    const theirs = await create({ accessToken: TOKEN }, other);
    const res = await f.expectNoCredentialWrite(() => school.admin.graphql(updateQ, { id: theirs.id, input: { accessToken: null } }));
    expect(errorCodes(res)).toEqual(['NOT_FOUND']);
  });
});

describe('hostCredential, hostCredentials and deleteHostCredential', () => {
  it('reads one and the list of a library; the token is not a field of the type', async () => {
    const library = await f.library(school);
    const a = await create({ accessToken: TOKEN }, school, library.id);
    const b = await create({}, school, library.id);
    const one = await school.admin.graphql(showQ, { id: a.id });
    expect(one.data.hostCredential).toEqual(a);
    const list = await school.admin.graphql(listQ, { libraryId: library.id });
    expect(list.data.hostCredentials.totalCount).toBe(2);
    expect(ids(list.data.hostCredentials.nodes)).toEqual([Number(a.id), Number(b.id)]);
    const asked = await school.admin.graphql(`query ($id: ID!) { hostCredential(id: $id) { accessToken } }`, { id: a.id });
    expect(asked.status).toBe(400);
    expect(errorCodes(asked)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it("another school's credential and library are NOT_FOUND", async () => {
    const theirs = await create({}, other);
    expect(errorCodes(await school.admin.graphql(showQ, { id: theirs.id }))).toEqual(['NOT_FOUND']);
    expect(errorCodes(await school.admin.graphql(listQ, { libraryId: other.libraryId }))).toEqual(['NOT_FOUND']);
    const del = await f.expectNoCredentialWrite(() => school.admin.graphql(deleteQ, { id: theirs.id }));
    expect(errorCodes(del)).toEqual(['NOT_FOUND']);
  });

  it('deletes one', async () => {
    const made = await create();
    const res = await school.admin.graphql(deleteQ, { id: made.id });
    expect(res.data.deleteHostCredential).toEqual({ hostCredential: { id: made.id }, errors: [] });
    expect(await stored(made.id)).toBeUndefined();
  });

  it('a platform credential naming the school may do everything', async () => {
    const platform = service.platform.forSchool(school.id);
    const res = await platform.graphql(createQ, { libraryId: school.libraryId, input: { host: newHost() } });
    expect(res.data.createHostCredential.errors).toEqual([]);
    const id = res.data.createHostCredential.hostCredential.id;
    expect((await platform.graphql(showQ, { id })).data.hostCredential.id).toBe(id);
    expect((await platform.graphql(deleteQ, { id })).data.deleteHostCredential.errors).toEqual([]);
  });
});

describe('roles: only platform and admin', () => {
  it.each([['collaborator'], ['student'], ['app']] as const)('a %s credential is FORBIDDEN to read or write them; nothing written', async (role) => {
    const client: Client = await f.as(school, role);
    const made = await create({ accessToken: TOKEN });
    expect(errorCodes(await client.graphql(showQ, { id: made.id }))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await client.graphql(listQ, { libraryId: school.libraryId }))).toEqual(['FORBIDDEN']);
    for (const [query, variables] of [
      [createQ, { libraryId: school.libraryId, input: { host: newHost(), accessToken: TOKEN } }],
      [updateQ, { id: made.id, input: { accessToken: null } }],
      [deleteQ, { id: made.id }],
    ] as const) {
      const res = await f.expectNoCredentialWrite(() => client.graphql(query, variables));
      expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    }
  });

  it('without a credential, UNAUTHENTICATED', async () => {
    const made = await create();
    expect(errorCodes(await service.anonymous.graphql(showQ, { id: made.id }))).toEqual(['UNAUTHENTICATED']);
  });
});

describe('Library.hostCredentials', () => {
  const libraryQ = graphql(`query ($id: ID!) { library(id: $id) { id name hostCredentials { id host accessTokenHint hasAccessToken } } }`);

  it("lists the library's credentials for an admin", async () => {
    const library = await f.library(school, 'With credentials');
    const a = await create({ accessToken: TOKEN }, school, library.id);
    const res = await school.admin.graphql(libraryQ, { id: library.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.library).toEqual({
      id: String(library.id),
      name: 'With credentials',
      hostCredentials: [{ id: a.id, host: a.host, accessTokenHint: '****7788', hasAccessToken: true }],
    });
  });

  it('for a collaborator the field reads null (a secret field, role-matrix.ts); the library itself is returned', async () => {
    const client = await f.as(school, 'collaborator');
    await create({ accessToken: TOKEN });
    const res = await client.graphql(libraryQ, { id: school.libraryId });
    expect(res.errors).toBeUndefined();
    expect(res.data.library).toMatchObject({ id: String(school.libraryId), hostCredentials: null });
  });

  it('a student may not read the library at all: FORBIDDEN', async () => {
    const client = await f.as(school, 'student');
    const res = await client.graphql(libraryQ, { id: school.libraryId });
    expect(errorCodes(res)).toEqual(['FORBIDDEN']);
  });
});
