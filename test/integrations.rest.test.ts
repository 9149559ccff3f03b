import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/auth/secrets.js';
import { integrations } from '../src/modules/integrations/integration.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Reply, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// REST face of Integration: CRUD, owner in the school, metadata events, write-only metaconfig.
// POST /integrations/suggestions is in integrations.suggestions.test.ts.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('Integrations School', 'Other Integrations School')));
afterAll(() => service?.stop());

const SECRET = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
const TOKEN = 'hook-token-998877665544';

async function row(id: number) {
  const [r] = await service.db.select().from(integrations).where(eq(integrations.id, id));
  return r;
}
const allRows = fingerprint(() => service, { integrations });
const expectNoWrite = (work: () => Promise<Reply>) => expectNoWriteOf(allRows, work);
/** No reply may carry a clear configuration value. */
function expectNoSecrets(res: Reply, ...secrets: string[]) {
  for (const secret of secrets) expect(res.text).not.toContain(secret);
}
async function create(fields: Record<string, unknown> = {}, s: TestSchool = school) {
  const res = await s.admin.post('/integrations', { integration: { owner_type: 'School', owner_id: s.id, ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('POST /integrations', () => {
  it('given every field as JSON, then 201 with a Location; metaconfig is stored encrypted and shown masked', async () => {
    const res = await school.admin.post('/integrations', {
      integration: {
        owner_type: 'School',
        owner_id: school.id,
        type: 'webhook',
        active: false,
        metadata: { events: ['enrollment.created', 'message.created', 'enrollment.created'] },
        metaconfig: { api_key: SECRET, token: TOKEN, pin: '1234', retries: 3 },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/integrations/${res.body.id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      owner_type: 'School',
      owner_id: school.id,
      type: 'webhook',
      active: false,
      metadata: { events: ['enrollment.created', 'message.created'] },
      metaconfig: { api_key: '****2b1c', token: '****5544', pin: '****', retries: '****' },
    });
    expectNoSecrets(res, SECRET, TOKEN, '"1234"');
    const stored = await row(res.body.id);
    expect(stored.metaconfigCiphertext).not.toContain(SECRET);
    expect(JSON.parse(decryptSecret(stored.metaconfigCiphertext!))).toEqual({ api_key: SECRET, token: TOKEN, pin: '1234', retries: 3 });
    expect(stored).toMatchObject({ schoolId: school.id, ownerType: 'School', ownerId: school.id, active: false, metadata: { events: ['enrollment.created', 'message.created'] } });
  });

  it('given only the owner, then active defaults to true and metadata and metaconfig are null', async () => {
    const body = await create();
    expect(body).toMatchObject({ active: true, type: null, metadata: null, metaconfig: null });
  });

  it.each([['SchoolProduct'], ['Course'], ['Student'], ['Collaborator']])('given a %s of the school as owner, then 201', async (type) => {
    const owner =
      type === 'SchoolProduct' ? await f.product(school) : type === 'Course' ? await f.course(school) : await f.person(school, type as 'Student');
    const body = await create({ owner_type: type, owner_id: owner.id });
    expect(body).toMatchObject({ owner_type: type, owner_id: owner.id });
  });

  it('given a snake_case owner type and a bare list of events, then they are read as SchoolProduct and {"events": [...]}', async () => {
    const product = await f.product(school);
    const body = await create({ owner_type: 'school_product', owner_id: product.id, metadata: ['order.confirmed'] });
    expect(body).toMatchObject({ owner_type: 'SchoolProduct', metadata: { events: ['order.confirmed'] } });
  });

  it('given a form-urlencoded body with bracket names, then typed values and a masked metaconfig', async () => {
    const raw = [
      'integration[owner_type]=School',
      `integration[owner_id]=${school.id}`,
      'integration[active]=false',
      'integration[type]=crm',
      'integration[metadata][events][]=order.created',
      'integration[metadata][events][]=order.canceled',
      `integration[metaconfig][api_key]=${SECRET}`,
    ].join('&');
    const res = await school.admin.post('/integrations', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ active: false, type: 'crm', metadata: { events: ['order.created', 'order.canceled'] }, metaconfig: { api_key: '****2b1c' } });
    expectNoSecrets(res, SECRET);
  });

  it('given a multipart body, then 201', async () => {
    const res = await school.admin.post(
      '/integrations',
      { integration: { owner_type: 'School', owner_id: String(school.id), metadata: { events: 'lesson.created' }, metaconfig: { key: TOKEN } } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata).toEqual({ events: ['lesson.created'] });
    expectNoSecrets(res, TOKEN);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it('given no owner, then owner_type and owner_id are blank', async () => {
      const res = await expectNoWrite(() => school.admin.post('/integrations', { integration: { type: 'x' } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ owner_type: [{ error: 'blank' }], owner_id: [{ error: 'blank' }] });
    });

    it('given an owner type outside the list, then owner_type is not included', async () => {
      const res = await expectNoWrite(() => school.admin.post('/integrations', { integration: { owner_type: 'Forum', owner_id: 1 } }));
      expectFieldError(res, 422, 'owner_type', 'inclusion');
      expect(res.body.errors.owner_type[0]).toContain('School, SchoolProduct, Course, Student, Collaborator');
    });

    it.each([
      ['another school', async () => ({ owner_type: 'School', owner_id: other.id })],
      ["another school's product", async () => ({ owner_type: 'SchoolProduct', owner_id: (await f.product(other)).id })],
      ["another school's course", async () => ({ owner_type: 'Course', owner_id: (await f.course(other)).id })],
      ["another school's student", async () => ({ owner_type: 'Student', owner_id: (await f.person(other, 'Student')).id })],
      ['a collaborator named as a Student', async () => ({ owner_type: 'Student', owner_id: (await f.person(school, 'Collaborator')).id })],
      ['no such product', async () => ({ owner_type: 'SchoolProduct', owner_id: 999999 })],
    ])('given an owner that is %s, then owner_id must exist in this school', async (_name, owner) => {
      const fields = await owner();
      const res = await expectNoWrite(() => school.admin.post('/integrations', { integration: fields }));
      expectFieldError(res, 422, 'owner_id', 'not_found');
    });

    it('given unknown event names, then metadata.events names them', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/integrations', {
          integration: { owner_type: 'School', owner_id: school.id, metadata: { events: ['enrollment.created', 'student.graduated', 'order.exploded'] } },
        }),
      );
      expectFieldError(res, 422, 'metadata.events', 'inclusion');
      expect(res.body.errors['metadata.events'][0]).toContain('student.graduated, order.exploded');
      expect(res.body.errors['metadata.events'][0]).not.toContain('enrollment.created (');
    });

    it.each([
      ['other keys than events', { events: [], url: 'https://x' }, 'metadata'],
      ['events that are not a list of names', { events: { a: 1 } }, 'metadata.events'],
      ['a string', 'enrollment.created', 'metadata'],
    ])('given metadata with %s, then it is invalid', async (_name, metadata, field) => {
      const res = await expectNoWrite(() => school.admin.post('/integrations', { integration: { owner_type: 'School', owner_id: school.id, metadata } }));
      expectFieldError(res, 422, field, 'invalid');
    });
  });

  describe('malformed requests: 400', () => {
    it.each([
      ['a metaconfig that is no hash', { metaconfig: 'key=value' }, 'metaconfig'],
      ['an active that is no boolean', { active: 'maybe' }, 'active'],
    ])('given %s, then 400 names the field', async (_name, fields, field) => {
      const res = await expectNoWrite(() => school.admin.post('/integrations', { integration: { owner_type: 'School', owner_id: school.id, ...fields } }));
      expectFieldError(res, 400, field);
    });
    it('given no integration hash, then 400', async () => {
      expectFieldError(await expectNoWrite(() => school.admin.post('/integrations', { owner_type: 'School' })), 400, 'integration');
    });
  });

  it('given a student, collaborator or app credential 403, none 401; only managers may', async () => {
    const body = { integration: { owner_type: 'School', owner_id: school.id } };
    const { client } = await f.studentClient(school);
    expectErrorBody(await expectNoWrite(() => client.post('/integrations', body)), 403);
    expectErrorBody(await expectNoWrite(() => service.anonymous.post('/integrations', body)), 401);
    // Integrations are MANAGERS (platform, admin): their settings hold secrets.
    const collaborator = await service.token('collaborator', school.id, (await f.person(school, 'Collaborator')).id);
    expectErrorBody(await expectNoWrite(() => collaborator.post('/integrations', body)), 403);
    const app = await service.token('app', school.id);
    expectErrorBody(await expectNoWrite(() => app.post('/integrations', body)), 403);
    const res = await school.admin.post('/integrations', body);
    expect(res.status, res.text).toBe(201);
  });
});

describe('GET /integrations and /integrations/:id', () => {
  it("lists the school's integrations with masked configuration only", async () => {
    const mine = await create({ metaconfig: { api_key: SECRET } });
    const theirs = await create({ metaconfig: { api_key: TOKEN } }, other);
    const res = await school.admin.get('/integrations');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(ids(res.body)).toContain(mine.id);
    expect(ids(res.body)).not.toContain(theirs.id);
    expectNoSecrets(res, SECRET, TOKEN);
    expect(res.text).not.toContain('ciphertext');
    expect(res.body.find((i: any) => i.id === mine.id).metaconfig).toEqual({ api_key: '****2b1c' });
  });

  it("shows one; another school's is 404", async () => {
    const mine = await create({ metaconfig: { api_key: SECRET } });
    const theirs = await create({}, other);
    const res = await school.admin.get(`/integrations/${mine.id}`);
    expect(res.status).toBe(200);
    // The webhook signing secret is shown once, in the create reply; never again.
    expect(mine.signing_secret).toMatch(/^whsec_/);
    expect(res.body).toEqual({ ...mine, signing_secret: null });
    expectNoSecrets(res, SECRET, mine.signing_secret);
    expectFieldError(await school.admin.get(`/integrations/${theirs.id}`), 404, 'base', 'not_found');
    expectErrorBody(await school.admin.get('/integrations/999999'), 404);
  });

  it('a student credential may not read them (403)', async () => {
    const { client } = await f.studentClient(school);
    expectErrorBody(await client.get('/integrations'), 403);
  });
});

describe('PUT and PATCH /integrations/:id', () => {
  it('sending back a fetched object keeps the stored secrets, merges new keys, and replies 200 with a Location', async () => {
    const created = await create({ metaconfig: { api_key: SECRET, token: TOKEN }, metadata: { events: ['order.created'] } });
    const fetched = (await school.admin.get(`/integrations/${created.id}`)).body;
    const res = await school.admin.put(`/integrations/${created.id}`, {
      integration: { ...fetched, type: 'zapier', metaconfig: { ...fetched.metaconfig, region: 'eu-west-1-extra' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/integrations/${created.id}`);
    expect(res.body).toMatchObject({ type: 'zapier', metaconfig: { api_key: '****2b1c', token: '****5544', region: '****xtra' } });
    expectNoSecrets(res, SECRET, TOKEN, 'eu-west-1-extra');
    const stored = await row(created.id);
    expect(JSON.parse(decryptSecret(stored.metaconfigCiphertext!))).toEqual({ api_key: SECRET, token: TOKEN, region: 'eu-west-1-extra' });
  });

  it('PATCH replaces a value, removes a key set to null, and null clears the whole configuration', async () => {
    const created = await create({ metaconfig: { api_key: SECRET, token: TOKEN } });
    const res = await school.admin.patch(`/integrations/${created.id}`, { integration: { metaconfig: { api_key: 'rotated-key-000011112222', token: null } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.metaconfig).toEqual({ api_key: '****2222' });
    expect(JSON.parse(decryptSecret((await row(created.id)).metaconfigCiphertext!))).toEqual({ api_key: 'rotated-key-000011112222' });
    const cleared = await school.admin.patch(`/integrations/${created.id}`, { integration: { metaconfig: null } });
    expect(cleared.body.metaconfig).toBeNull();
    expect((await row(created.id)).metaconfigCiphertext).toBeNull();
  });

  it('moves the owner within the school, and checks the new owner and the events', async () => {
    const created = await create();
    const product = await f.product(school);
    const moved = await school.admin.put(`/integrations/${created.id}`, { integration: { owner_type: 'SchoolProduct', owner_id: product.id } }, { encoding: 'form' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ owner_type: 'SchoolProduct', owner_id: product.id });
    // Only the id changes: it is checked against the stored type.
    const foreignProduct = await f.product(other);
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/integrations/${created.id}`, { integration: { owner_id: foreignProduct.id } })), 422, 'owner_id', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/integrations/${created.id}`, { integration: { owner_type: '' } })), 422, 'owner_type', 'blank');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/integrations/${created.id}`, { integration: { metadata: { events: ['nope'] } } })), 422, 'metadata.events', 'inclusion');
  });

  it("another school's integration is 404 and untouched", async () => {
    const theirs = await create({ metaconfig: { api_key: TOKEN } }, other);
    expectErrorBody(await expectNoWrite(() => school.admin.put(`/integrations/${theirs.id}`, { integration: { active: false } })), 404);
  });
});

describe('DELETE /integrations/:id', () => {
  it("deletes with 204; another school's is 404 and stays", async () => {
    const mine = await create();
    const res = await school.admin.delete(`/integrations/${mine.id}`);
    expect(res.status).toBe(204);
    expect(await row(mine.id)).toBeUndefined();
    const theirs = await create({}, other);
    expectErrorBody(await expectNoWrite(() => school.admin.delete(`/integrations/${theirs.id}`)), 404);
    expect(await row(theirs.id)).toBeDefined();
  });
});
