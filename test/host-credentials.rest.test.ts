import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/auth/secrets.js';
import { ids, libraryFixtures } from './support/library.fixtures.js';
import { type Client, type Reply, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of HostCredential: the spec's five rows, their singular/plural twins, the write-only
// access token (stored encrypted, shown as a hint), roles (platform and admin only) and tenancy.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof libraryFixtures>;
let collaborator: Client;
let student: Client;
let app: Client;

twoSchools('Host Credentials School', 'Host Credentials Other', async (w) => {
  ({ service, school, other } = w);
  f = libraryFixtures(service);
  collaborator = await f.as(school, 'collaborator');
  student = await f.as(school, 'student');
  app = await f.as(school, 'app');
});

const TOKEN = 'vimeo_pat_9f8e7d6c5b4a3210';
const OTHER_TOKEN = 'pandavideo-key-0011223344';
let hosts = 0;
const newHost = () => `media${++hosts}.example.com`;

/** No reply may carry a clear access token, nor anything named like the stored ciphertext. */
function expectNoToken(res: Reply, ...tokens: string[]) {
  for (const token of tokens) expect(res.text).not.toContain(token);
  expect(res.text).not.toMatch(/ciphertext|"access_token"/);
}

async function create(fields: Record<string, unknown> = {}, s: TestSchool = school, libraryId = s.libraryId) {
  const res = await s.admin.post(`/libraries/${libraryId}/host_credentials`, { host_credential: { host: newHost(), ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; host: string; access_token_hint: string | null; has_access_token: boolean; pids: string | null };
}

describe('POST /libraries/:library_id/host_credentials', () => {
  it('given host, access_token and pids as JSON, then 201 with a Location; the token is stored encrypted and shown as a hint', async () => {
    const host = newHost();
    const res = await school.admin.post(`/libraries/${school.libraryId}/host_credentials`, {
      host_credential: { host, access_token: TOKEN, pids: '101,102' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/host_credentials/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      library_id: school.libraryId,
      host,
      pids: '101,102',
      access_token_hint: '****3210',
      has_access_token: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expectNoToken(res, TOKEN);
    const stored = await f.credentialRow(res.body.id);
    expect(stored.accessTokenCiphertext).not.toBe(TOKEN);
    expect(stored.accessTokenCiphertext).not.toContain(TOKEN);
    expect(decryptSecret(stored.accessTokenCiphertext!)).toBe(TOKEN);
    expect(stored).toMatchObject({ schoolId: school.id, libraryId: school.libraryId, host, pids: '101,102', accessTokenHint: '****3210' });
  });

  it('given a form-urlencoded body with bracket names, then 201 and the token is stored', async () => {
    const host = newHost();
    const raw = [`host_credential[host]=${host}`, `host_credential[access_token]=${TOKEN}`, 'host_credential[pids]=7'].join('&');
    const res = await school.admin.post(`/libraries/${school.libraryId}/host_credentials`, undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ host, pids: '7', access_token_hint: '****3210', has_access_token: true });
    expectNoToken(res, TOKEN);
    expect(decryptSecret((await f.credentialRow(res.body.id)).accessTokenCiphertext!)).toBe(TOKEN);
  });

  it('given a multipart body, then 201', async () => {
    const host = newHost();
    const res = await school.admin.post(
      `/libraries/${school.libraryId}/host_credentials`,
      { host_credential: { host, access_token: OTHER_TOKEN } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ host, access_token_hint: '****3344', has_access_token: true, pids: null });
    expectNoToken(res, OTHER_TOKEN);
  });

  it('given a short token, then the hint shows none of it; given no token, then no hint', async () => {
    const short = await create({ access_token: 'abc12345' });
    expect(short).toMatchObject({ access_token_hint: '****', has_access_token: true });
    expect(decryptSecret((await f.credentialRow(short.id)).accessTokenCiphertext!)).toBe('abc12345');
    const none = await create();
    expect(none).toMatchObject({ access_token_hint: null, has_access_token: false });
    expect((await f.credentialRow(none.id)).accessTokenCiphertext).toBeNull();
  });

  it('given a platform credential naming the school, then 201', async () => {
    const res = await service.platform
      .forSchool(school.id)
      .post(`/libraries/${school.libraryId}/host_credentials`, { host_credential: { host: newHost() } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBe(school.id);
  });

  it('given no host, then 422 with host blank and nothing written', async () => {
    const res = await f.expectNoCredentialWrite(() =>
      school.admin.post(`/libraries/${school.libraryId}/host_credentials`, { host_credential: { access_token: TOKEN, pids: '1' } }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { host: ["can't be blank"] }, details: { host: [{ error: 'blank' }] } });
    expectNoToken(res, TOKEN);
  });

  it('given a host of blanks, then 422 blank too', async () => {
    const res = await f.expectNoCredentialWrite(() =>
      school.admin.post(`/libraries/${school.libraryId}/host_credentials`, { host_credential: { host: '   ' } }, { encoding: 'form' }),
    );
    expectFieldError(res, 422, 'host', 'blank');
  });

  it('given a masked value as the token, then 422: a mask is not stored as a token', async () => {
    const res = await f.expectNoCredentialWrite(() =>
      school.admin.post(`/libraries/${school.libraryId}/host_credentials`, { host_credential: { host: newHost(), access_token: '****3210' } }),
    );
    expectFieldError(res, 422, 'access_token', 'invalid');
  });

  it('given a host the library already has (in any case), then 409 taken and nothing written', async () => {
    const first = await create({ access_token: TOKEN });
    const res = await f.expectNoCredentialWrite(() =>
      school.admin.post(`/libraries/${school.libraryId}/host_credentials`, { host_credential: { host: first.host.toUpperCase(), access_token: OTHER_TOKEN } }),
    );
    expectFieldError(res, 409, 'host', 'taken');
    expect(res.body.errors.host).toEqual(['has already been taken']);
    expectNoToken(res, TOKEN, OTHER_TOKEN);
  });

  it('given the same host in another library, then 201', async () => {
    const first = await create();
    const second = await f.library(school);
    const res = await school.admin.post(`/libraries/${second.id}/host_credentials`, { host_credential: { host: first.host } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.library_id).toBe(second.id);
  });

  it("given another school's library or no such library, then 404 and nothing written", async () => {
    for (const libraryId of [other.libraryId, 999999, 'abc']) {
      const res = await f.expectNoCredentialWrite(() =>
        school.admin.post(`/libraries/${libraryId}/host_credentials`, { host_credential: { host: newHost(), access_token: TOKEN } }),
      );
      expectFieldError(res, 404, 'base', 'not_found');
    }
  });

  it('given no host_credential hash, then 400', async () => {
    const res = await f.expectNoCredentialWrite(() => school.admin.post(`/libraries/${school.libraryId}/host_credentials`, { host: newHost() }));
    expectFieldError(res, 400, 'host_credential');
  });

  it('given a collaborator, student or app credential 403, none 401; nothing written', async () => {
    const body = { host_credential: { host: newHost(), access_token: TOKEN } };
    for (const client of [collaborator, student, app]) {
      expectErrorBody(await f.expectNoCredentialWrite(() => client.post(`/libraries/${school.libraryId}/host_credentials`, body)), 403);
    }
    expectErrorBody(await f.expectNoCredentialWrite(() => service.anonymous.post(`/libraries/${school.libraryId}/host_credentials`, body)), 401);
  });
});

describe('GET /libraries/:library_id/host_credentials', () => {
  it("lists the library's credentials with hints only, as a JSON array with paging headers", async () => {
    const library = await f.library(school);
    const a = await create({ access_token: TOKEN }, school, library.id);
    const b = await create({ access_token: OTHER_TOKEN }, school, library.id);
    const elsewhere = await create();
    const res = await school.admin.get(`/libraries/${library.id}/host_credentials`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([a.id, b.id]);
    expect(ids(res.body)).not.toContain(elsewhere.id);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body.map((c: any) => c.access_token_hint)).toEqual(['****3210', '****3344']);
    expectNoToken(res, TOKEN, OTHER_TOKEN);
  });

  it('pages with page and per_page, under /v1 and with .json', async () => {
    const library = await f.library(school);
    const made = [await create({}, school, library.id), await create({}, school, library.id), await create({}, school, library.id)];
    const res = await school.admin.get(`/v1/libraries/${library.id}/host_credentials.json?page=2&per_page=2`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([made[2].id]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers['x-page']).toBe('2');
  });

  it("another school's library is 404; a collaborator or student 403; none 401", async () => {
    await create({}, other);
    expectFieldError(await school.admin.get(`/libraries/${other.libraryId}/host_credentials`), 404, 'base', 'not_found');
    expectErrorBody(await collaborator.get(`/libraries/${school.libraryId}/host_credentials`), 403);
    expectErrorBody(await student.get(`/libraries/${school.libraryId}/host_credentials`), 403);
    expectErrorBody(await service.anonymous.get(`/libraries/${school.libraryId}/host_credentials`), 401);
  });
});

describe('GET /host_credentials/:id (and the singular twin)', () => {
  it('shows one with its hint at the plural and the singular path', async () => {
    const made = await create({ access_token: TOKEN, pids: 'p1' });
    for (const path of [`/host_credentials/${made.id}`, `/host_credential/${made.id}`, `/api/host_credentials/${made.id}.json`]) {
      const res = await school.admin.get(path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body).toEqual(made);
      expectNoToken(res, TOKEN);
    }
  });

  it("another school's credential or none is 404; a collaborator or student 403; none 401", async () => {
    const theirs = await create({ access_token: TOKEN }, other);
    const res = await school.admin.get(`/host_credentials/${theirs.id}`);
    expectFieldError(res, 404, 'base', 'not_found');
    expectNoToken(res, TOKEN);
    expectErrorBody(await school.admin.get('/host_credentials/999999'), 404);
    const mine = await create();
    expectErrorBody(await collaborator.get(`/host_credentials/${mine.id}`), 403);
    expectErrorBody(await student.get(`/host_credential/${mine.id}`), 403);
    expectErrorBody(await service.anonymous.get(`/host_credentials/${mine.id}`), 401);
  });
});

describe('PUT and PATCH /host_credential/:id (and the plural twins)', () => {
  it('sending back a fetched object keeps the stored token and replies 200 with a Location', async () => {
    const made = await create({ access_token: TOKEN });
    const fetched = (await school.admin.get(`/host_credentials/${made.id}`)).body;
    const host = newHost();
    const res = await school.admin.put(`/host_credential/${made.id}`, { host_credential: { ...fetched, host, pids: '9' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/host_credentials/${made.id}`);
    expect(res.body).toMatchObject({ id: made.id, host, pids: '9', access_token_hint: '****3210', has_access_token: true });
    expectNoToken(res, TOKEN);
    expect(decryptSecret((await f.credentialRow(made.id)).accessTokenCiphertext!)).toBe(TOKEN);
  });

  it('the hint sent back as access_token keeps the token', async () => {
    const made = await create({ access_token: TOKEN });
    const before = await f.credentialRow(made.id);
    const res = await school.admin.patch(`/host_credential/${made.id}`, { host_credential: { access_token: made.access_token_hint } });
    expect(res.status, res.text).toBe(200);
    expect((await f.credentialRow(made.id)).accessTokenCiphertext).toBe(before.accessTokenCiphertext);
  });

  it('a new token replaces the stored one; null clears it; an empty form value clears it too', async () => {
    const made = await create({ access_token: TOKEN });
    const replaced = await school.admin.patch(`/host_credentials/${made.id}`, { host_credential: { access_token: OTHER_TOKEN } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ access_token_hint: '****3344', has_access_token: true });
    expectNoToken(replaced, TOKEN, OTHER_TOKEN);
    expect(decryptSecret((await f.credentialRow(made.id)).accessTokenCiphertext!)).toBe(OTHER_TOKEN);

    const cleared = await school.admin.put(`/host_credentials/${made.id}`, { host_credential: { access_token: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ access_token_hint: null, has_access_token: false });
    expect(await f.credentialRow(made.id)).toMatchObject({ accessTokenCiphertext: null, accessTokenHint: null });

    await school.admin.patch(`/host_credential/${made.id}`, { host_credential: { access_token: TOKEN } });
    const formCleared = await school.admin.patch(`/host_credential/${made.id}`, { host_credential: { access_token: '' } }, { encoding: 'form' });
    expect(formCleared.status, formCleared.text).toBe(200);
    expect(formCleared.body.has_access_token).toBe(false);
  });

  it('a multipart update changes pids and keeps the token it does not name', async () => {
    const made = await create({ access_token: TOKEN });
    const res = await school.admin.put(`/host_credential/${made.id}`, { host_credential: { pids: '55,66' } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ pids: '55,66', has_access_token: true, access_token_hint: '****3210' });
  });

  it('clearing the host is 422 blank, a host taken in the library 409; nothing written', async () => {
    const a = await create({ access_token: TOKEN });
    const b = await create();
    const blank = await f.expectNoCredentialWrite(() => school.admin.put(`/host_credential/${a.id}`, { host_credential: { host: '', access_token: OTHER_TOKEN } }));
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ errors: { host: ["can't be blank"] }, details: { host: [{ error: 'blank' }] } });
    const taken = await f.expectNoCredentialWrite(() => school.admin.patch(`/host_credential/${b.id}`, { host_credential: { host: a.host, access_token: OTHER_TOKEN } }));
    expectFieldError(taken, 409, 'host', 'taken');
  });

  it("another school's credential is 404 and untouched; a collaborator or student 403; none 401", async () => {
    const theirs = await create({ access_token: TOKEN }, other);
    const body = { host_credential: { access_token: null, host: newHost() } };
    expectFieldError(await f.expectNoCredentialWrite(() => school.admin.put(`/host_credential/${theirs.id}`, body)), 404, 'base', 'not_found');
    const mine = await create({ access_token: TOKEN });
    expectErrorBody(await f.expectNoCredentialWrite(() => collaborator.patch(`/host_credential/${mine.id}`, body)), 403);
    expectErrorBody(await f.expectNoCredentialWrite(() => student.put(`/host_credentials/${mine.id}`, body)), 403);
    expectErrorBody(await f.expectNoCredentialWrite(() => service.anonymous.put(`/host_credential/${mine.id}`, body)), 401);
  });
});

describe('DELETE /host_credential/:id (and the plural twin)', () => {
  it('deletes with 204 at the singular and the plural path', async () => {
    for (const path of ['/host_credential', '/host_credentials']) {
      const made = await create({ access_token: TOKEN });
      const res = await school.admin.delete(`${path}/${made.id}`);
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expect(await f.credentialRow(made.id)).toBeUndefined();
      expectErrorBody(await school.admin.get(`/host_credentials/${made.id}`), 404);
    }
  });

  it("another school's credential is 404 and stays; a collaborator or student 403; none 401", async () => {
    const theirs = await create({}, other);
    expectErrorBody(await f.expectNoCredentialWrite(() => school.admin.delete(`/host_credential/${theirs.id}`)), 404);
    expect(await f.credentialRow(theirs.id)).toBeDefined();
    const mine = await create();
    expectErrorBody(await f.expectNoCredentialWrite(() => collaborator.delete(`/host_credential/${mine.id}`)), 403);
    expectErrorBody(await f.expectNoCredentialWrite(() => student.delete(`/host_credentials/${mine.id}`)), 403);
    expectErrorBody(await f.expectNoCredentialWrite(() => service.anonymous.delete(`/host_credential/${mine.id}`)), 401);
    expect(await f.credentialRow(mine.id)).toBeDefined();
  });
});
