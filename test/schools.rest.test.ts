import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/auth/secrets.js';
import { apiTokens } from '../src/auth/api-token.table.js';
import { forums } from '../src/modules/forums/forum.table.js';
import { libraries } from '../src/modules/library/library.table.js';
import { organizations, schools } from '../src/db/school.table.js';
import { schoolDomains, schoolStatusChanges } from '../src/modules/schools/school.table.js';
import { users } from '../src/modules/users/user.table.js';
import { type Encoding, type Reply, type Service, startTwoSchools, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';
import { unique } from './support/rows.js';
import { schoolFixtures } from './support/schools.fixtures.js';

/**
 * REST face of the Schools family: GET /schools, GET /schools/:id, POST /schools,
 * POST /schools/wizard, PUT/PATCH /school/:id (and /schools/:id), DELETE /school/:id (and /schools/:id).
 * Conventions checked are those of /work/shared/DESIGN.md.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** No SQL, stack frames or file paths in a reply. */
function expectNoInternals(res: Reply) {
  expect(res.text).not.toMatch(/\bselect\b.*\bfrom\b|\binsert into\b|\bupdate\b.*\bset\b|\bat \S+ \(|node_modules|\.ts:\d+|\.js:\d+/i);
}

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { schoolRow, countRows, person, studentOf } = schoolFixtures(() => service);
  /** A school made with POST /schools (status pending). */
  async function createSchool(fields: Record<string, unknown> = {}) {
    const res = await service.platform.post('/schools', { school: { name: 'Created', subdomain: unique('sub'), ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    ({ service, school: a, other: b } = await startTwoSchools('Alpha Academy', 'Beta Institute'));
  });
  afterAll(() => service?.stop());

  describe('credentials', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/schools'],
      ['GET', '/schools/1'],
      ['POST', '/schools', { school: { name: 'X', subdomain: 'x-unauth' } }],
      ['POST', '/schools/wizard', { school: { name: 'X', email: 'x@example.com', password: 'secret-password' } }],
      ['PUT', '/school/1', { school: { name: 'X' } }],
      ['PATCH', '/school/1', { school: { name: 'X' } }],
      ['PUT', '/schools/1', { school: { name: 'X' } }],
      ['PATCH', '/schools/1', { school: { name: 'X' } }],
      ['DELETE', '/school/1'],
      ['DELETE', '/schools/1'],
    ];

    it.each(routes)('given no Authorization header, when %s %s, then 401 and nothing is written', async (method, url, body) => {
      const schoolsBefore = await countRows(schools);
      const res = await service.anonymous.request(method, url.replace('/1', `/${a.id}`), body);
      expectFieldError(res, 401, 'base', 'unauthenticated');
      expect(await countRows(schools)).toBe(schoolsBefore);
      expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
    });

    it.each(routes)('given a wrong token, when %s %s, then 401', async (method, url, body) => {
      const res = await service.client('lp_platform_not-a-real-token').request(method, url.replace('/1', `/${a.id}`), body);
      expectFieldError(res, 401, 'base', 'unauthenticated');
      expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
    });

    it('given a header of an unknown scheme, when GET /schools, then 401', async () => {
      const res = await service.anonymous.get('/schools', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      expectFieldError(res, 401, 'base', 'unauthenticated');
    });

    it('given the Rails forms Token token="..." and Token token=..., when GET /schools/:id, then both are accepted', async () => {
      const token = a.admin.token!;
      for (const header of [`Token token="${token}"`, `Token token=${token}`]) {
        const res = await service.anonymous.get(`/schools/${a.id}`, { headers: { authorization: header } });
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(a.id);
      }
    });
  });

  describe('GET /schools', () => {
    it('given a platform credential, when listing, then every school is returned with list headers', async () => {
      const res = await service.platform.get('/schools');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      const ids = res.body.map((s: { id: number }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
      expect(res.headers['x-total-count']).toBe(String(await countRows(schools)));
      expect(res.body).toHaveLength(await countRows(schools));
      expect(res.headers.link).toMatch(/rel="first"/);
    });

    it('given a school credential, when listing, then only its own school is returned', async () => {
      for (const client of [a.admin, await studentOf(a), await service.token('collaborator', a.id), await service.token('app', a.id)]) {
        const res = await client.get('/schools');
        expect(res.status, res.text).toBe(200);
        expect(res.body.map((s: { id: number }) => s.id)).toEqual([a.id]);
        expect(res.headers['x-total-count']).toBe('1');
      }
    });

    it('given page and per_page, when listing, then one page with pagination headers is returned', async () => {
      const total = await countRows(schools);
      const res = await service.platform.get('/schools?page=1&per_page=1');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(res.headers['x-total-count']).toBe(String(total));
      expect(res.headers['x-page']).toBe('1');
      expect(res.headers['x-per-page']).toBe('1');
      expect(res.headers.link).toMatch(/rel="next"/);
      const tooMany = await service.platform.get('/schools?page=1&per_page=101');
      expectFieldError(tooMany, 400, 'per_page', 'bad_request');
    });

    describe('the email/type pair', () => {
      const shared = 'Shared.Person@Example.com';
      beforeAll(async () => {
        await person(a.id, 'Student', shared.toLowerCase());
        await person(b.id, 'Collaborator', shared.toLowerCase());
      });

      it('given email and type Student, when listing, then the schools where a student has that e-mail are returned', async () => {
        const res = await service.platform.get(`/schools?email=${encodeURIComponent(shared)}&type=Student`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.map((s: { id: number }) => s.id)).toEqual([a.id]);
      });

      it('given email and type Collaborator, when listing, then the schools where a collaborator has that e-mail are returned', async () => {
        const res = await service.platform.get(`/schools?email=${encodeURIComponent(shared.toLowerCase())}&type=Collaborator`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.map((s: { id: number }) => s.id)).toEqual([b.id]);
      });

      it('given an e-mail nobody has, when listing, then the list is empty', async () => {
        const res = await service.platform.get('/schools?email=nobody@example.com&type=Student');
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
        expect(res.headers['x-total-count']).toBe('0');
      });

      it("given a school credential, when listing by email/type, then other schools' matches are not shown", async () => {
        const res = await a.admin.get(`/schools?email=${encodeURIComponent(shared)}&type=Collaborator`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
      });

      it('given only email, when listing, then 400 naming type', async () => {
        expectFieldError(await service.platform.get(`/schools?email=${encodeURIComponent(shared)}`), 400, 'type', 'bad_request');
      });

      it('given only type, when listing, then 400 naming email', async () => {
        expectFieldError(await service.platform.get('/schools?type=Student'), 400, 'email', 'bad_request');
      });

      it.each(['Teacher', 'student', 'Admin'])('given the type %s (not Student or Collaborator), when listing, then 400', async (type) => {
        const res = await service.platform.get(`/schools?email=${encodeURIComponent(shared)}&type=${type}`);
        expect(res.status, res.text).toBe(400);
        expect(Object.keys(res.body)).toEqual(['errors', 'details']);
      });

      it('given a malformed e-mail, when listing, then 400', async () => {
        const res = await service.platform.get('/schools?email=not-an-email&type=Student');
        expect(res.status, res.text).toBe(400);
      });
    });
  });

  describe('GET /schools/:id', () => {
    it('given a platform credential, when showing a school, then 200 with snake_case fields, numeric ids and ISO times', async () => {
      const res = await service.platform.get(`/schools/${a.id}`);
      expect(res.status).toBe(200);
      const s = res.body;
      expect(s.id).toBe(a.id);
      expect(s.name).toBe('Alpha Academy');
      expect(s.subdomain).toBe('alpha-academy');
      expect(s.status).toBe('trial');
      expect(typeof s.organization_id).toBe('number');
      expect(s.created_at).toMatch(ISO);
      expect(s.updated_at).toMatch(ISO);
      expect(s.domains).toEqual([]);
      for (const key of ['crm_token', 'ads_adv_id', 'ads_pix_id', 'video_key', 'video_player_key', 'video_access_token', 'video_project_id', 'terms_of_use', 'social_link_1', 'social_link_7', 'company_name', 'seo_title', 'seo_description', 'meta_available_locales', 'metadata'])
        expect(s).toHaveProperty(key);
      expect(Object.keys(s).every((k) => k === k.toLowerCase())).toBe(true);
    });

    it('given the admin credential of the school, when showing it, then 200', async () => {
      const res = await a.admin.get(`/schools/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(a.id);
    });

    it('given the /v1 prefix and the .json suffix, when showing, then the same school', async () => {
      for (const url of [`/v1/schools/${a.id}`, `/schools/${a.id}.json`, `/api/v1/schools/${a.id}/`]) {
        const res = await a.admin.get(url);
        expect(res.status, url).toBe(200);
        expect(res.body.id).toBe(a.id);
      }
    });

    it("given another school's credential, when showing a school, then 404 not_found", async () => {
      expectFieldError(await b.admin.get(`/schools/${a.id}`), 404, 'base', 'not_found');
      expectFieldError(await (await studentOf(b)).get(`/schools/${a.id}`), 404, 'base', 'not_found');
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999', '999999'])('given the id %s, when showing, then 404 not_found', async (id) => {
      const res = await service.platform.get(`/schools/${id}`);
      expectFieldError(res, 404, 'base', 'not_found');
    });
  });

  describe('POST /schools', () => {
    it('given a platform credential and a JSON body, when creating, then 201 with the school, a Location and rows written', async () => {
      const sub = unique('gamma');
      const res = await service.platform.post('/schools', {
        school: {
          name: '  Gamma School  ',
          subdomain: sub.toUpperCase(),
          domains: ['Gamma.example.com', 'www.gamma.example'],
          email: 'contact@gamma.example',
          phone: '+55 11 5555-0000',
          cnpj: '12.345.678/0001-90',
          crm_token: 'crm-token-0001',
          ads_adv_id: 'adv-1',
          ads_pix_id: 'pix-1',
          video_key: 'vk',
          video_player_key: 'vpk',
          video_access_token: 'vat',
          video_project_id: 'vpid',
          terms_of_use: 'Be nice.',
          site: 'https://gamma.example',
          address: 'Rua 1',
          company_name: 'Gamma Ltda',
          seo_title: 'Gamma',
          seo_description: 'Learn',
          logo: 'https://gamma.example/logo.png',
          metadata: { plan: 'gold', seats: 10, nested: { ok: true } },
          meta_available_locales: ['pt-BR', 'en'],
        },
      });
      expect(res.status, res.text).toBe(201);
      const s = res.body;
      expect(typeof s.id).toBe('number');
      expect(res.headers.location).toBe(`/schools/${s.id}`);
      expect(s).toMatchObject({
        name: 'Gamma School',
        subdomain: sub,
        status: 'pending',
        domains: ['gamma.example.com', 'www.gamma.example'],
        email: 'contact@gamma.example',
        crm_token: '****0001',
        video_access_token: '****',
        ads_adv_id: 'adv-1',
        ads_pix_id: 'pix-1',
        video_project_id: 'vpid',
        company_name: 'Gamma Ltda',
        metadata: { plan: 'gold', seats: 10, nested: { ok: true } },
        meta_available_locales: ['pt-BR', 'en'],
      });
      expect(s.created_at).toMatch(ISO);
      const row = await schoolRow(s.id);
      expect(row).toMatchObject({ name: 'Gamma School', subdomain: sub, status: 'pending', termsOfUse: 'Be nice.', crmTokenHint: '****0001' });
      expect([decryptSecret(row.crmTokenCiphertext!), decryptSecret(row.videoAccessTokenCiphertext!)]).toEqual(['crm-token-0001', 'vat']);
      const domains = await service.db.select().from(schoolDomains).where(eq(schoolDomains.schoolId, s.id)).orderBy(schoolDomains.position);
      expect(domains.map((d) => d.domain)).toEqual(['gamma.example.com', 'www.gamma.example']);
      const shown = await service.platform.get(res.headers.location as string);
      expect(shown.body).toEqual(s);
    });

    it('given social_link_1..social_link_7, when creating and reading back, then each round-trips under its snake name', async () => {
      const links = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`social_link_${n}`, `https://social${n}.example/alpha`]));
      const res = await service.platform.post('/schools', { school: { name: 'Social', subdomain: unique('social'), ...links } });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject(links);
      const shown = await service.platform.get(`/schools/${res.body.id}`);
      expect(shown.body).toMatchObject(links);
      const row = await schoolRow(res.body.id);
      expect(row.socialLink1).toBe(links.social_link_1);
      expect(row.socialLink7).toBe(links.social_link_7);
    });

    it('given a form-urlencoded body with bracket names, when creating, then 201 with lists and hashes parsed', async () => {
      const sub = unique('form');
      const res = await service.platform.post(
        '/schools',
        {
          school: {
            name: 'Form School',
            subdomain: sub,
            domains: ['form-one.example', 'form-two.example'],
            social_link_3: 'https://s3.example',
            metadata: { source: 'form' },
            meta_available_locales: ['es'],
          },
        },
        { encoding: 'form' },
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Form School',
        subdomain: sub,
        domains: ['form-one.example', 'form-two.example'],
        social_link_3: 'https://s3.example',
        metadata: { source: 'form' },
        meta_available_locales: ['es'],
      });
      expect((await schoolRow(res.body.id)).subdomain).toBe(sub);
    });

    it('given a multipart body with bracket names, when creating, then 201', async () => {
      const sub = unique('multi');
      const res = await service.platform.post(
        '/schools',
        { school: { name: 'Multipart School', subdomain: sub, domains: ['multi.example'], social_link_7: 'https://s7.example' } },
        { encoding: 'multipart' },
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ name: 'Multipart School', subdomain: sub, domains: ['multi.example'], social_link_7: 'https://s7.example' });
      expect(await countRows(schools, eq(schools.subdomain, sub))).toBe(1);
    });

    it('given fields a body may carry but may not write (id, status, timestamps), when creating, then they are ignored', async () => {
      const sub = unique('ignored');
      const res = await service.platform.post('/schools', {
        school: { id: 999999, status: 'active', organization_id: 12345, created_at: '2000-01-01T00:00:00Z', name: 'Ignored', subdomain: sub },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.id).not.toBe(999999);
      expect(res.body.status).toBe('pending');
      expect(res.body.organization_id).toBeNull();
      expect(res.body.created_at).not.toMatch(/^2000-/);
    });

    it('given no name and no subdomain, when creating, then 422 with a Rails-style body and no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.post('/schools', { school: { email: 'x@example.com' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: { name: ["can't be blank"], subdomain: ["can't be blank"] },
        details: { name: [{ error: 'blank' }], subdomain: [{ error: 'blank' }] },
      });
      expect(await countRows(schools)).toBe(before);
    });

    it('given a blank name, when creating, then 422 naming name', async () => {
      const sub = unique('blank');
      const res = await service.platform.post('/schools', { school: { name: '   ', subdomain: sub } });
      expectFieldError(res, 422, 'name', 'blank');
      expect(await countRows(schools, eq(schools.subdomain, sub))).toBe(0);
    });

    it('given a subdomain already taken (in any case), when creating, then 409 taken and no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.post('/schools', { school: { name: 'Copy', subdomain: 'ALPHA-ACADEMY' } });
      expectFieldError(res, 409, 'subdomain', 'taken');
      expect(res.body.errors.subdomain).toEqual(['has already been taken']);
      expect(await countRows(schools)).toBe(before);
    });

    it.each(['bad_sub', 'has space', '-lead', 'trail-', 'ação', 'x'.repeat(64)])(
      'given the invalid subdomain %j, when creating, then 422 invalid',
      async (subdomain) => {
        const before = await countRows(schools);
        expectFieldError(await service.platform.post('/schools', { school: { name: 'Bad', subdomain } }), 422, 'subdomain', 'invalid');
        expect(await countRows(schools)).toBe(before);
      },
    );

    it('given a reserved subdomain, when creating, then 422', async () => {
      const res = await service.platform.post('/schools', { school: { name: 'Reserved', subdomain: 'www' } });
      expect(res.status).toBe(422);
      expect(res.body.errors.subdomain).toHaveLength(1);
    });

    it('given a domain another school has (in any case), when creating, then 409 taken on domains and no row', async () => {
      const owner = await createSchool({ domains: ['owned.example'] });
      const before = await countRows(schools);
      const res = await service.platform.post('/schools', { school: { name: 'Thief', subdomain: unique('thief'), domains: ['OWNED.example'] } });
      expectFieldError(res, 409, 'domains', 'taken');
      expect(await countRows(schools)).toBe(before);
      const kept = await service.db.select().from(schoolDomains).where(eq(schoolDomains.domain, 'owned.example'));
      expect(kept.map((d) => d.schoolId)).toEqual([owner.id]);
    });

    it('given an invalid domain or a domain listed twice, when creating, then 422 on domains', async () => {
      expectFieldError(
        await service.platform.post('/schools', { school: { name: 'D', subdomain: unique('d'), domains: ['not a domain'] } }),
        422,
        'domains',
        'invalid',
      );
      expectFieldError(
        await service.platform.post('/schools', { school: { name: 'D', subdomain: unique('d'), domains: ['twice.example', 'Twice.example'] } }),
        422,
        'domains',
        'invalid',
      );
    });

    it('given a school credential (admin, collaborator, student, app), when creating, then 403 and no row', async () => {
      const before = await countRows(schools);
      for (const client of [a.admin, await service.token('collaborator', a.id), await studentOf(a), await service.token('app', a.id)]) {
        const res = await client.post('/schools', { school: { name: 'Nope', subdomain: unique('nope') } });
        expectFieldError(res, 403, 'base', 'forbidden');
      }
      expect(await countRows(schools)).toBe(before);
    });

    describe('malformed bodies', () => {
      it('given invalid JSON, when creating, then 400', async () => {
        const res = await service.platform.request('POST', '/schools', undefined, {
          raw: '{"school": {"name": "x",',
          headers: { 'content-type': 'application/json' },
        });
        expectFieldError(res, 400, 'base', 'bad_request');
        expectNoInternals(res);
      });

      it('given no school key, when creating, then 400 naming school', async () => {
        expectFieldError(await service.platform.post('/schools', { name: 'X', subdomain: unique('x') }), 400, 'school', 'bad_request');
        expectFieldError(await service.platform.post('/schools', {}), 400, 'school', 'bad_request');
        expectFieldError(await service.platform.post('/schools'), 400, 'school', 'bad_request');
        expectFieldError(await service.platform.post('/schools', { school: 'x' }), 400, 'school', 'bad_request');
      });

      it('given a JSON array as the body, when creating, then 400', async () => {
        const res = await service.platform.post('/schools', [{ school: { name: 'X' } }]);
        expect(res.status).toBe(400);
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['metadata a string', { metadata: 'x' }, 'metadata'],
        ['metadata an array', { metadata: [1, 2] }, 'metadata'],
        ['domains a number', { domains: 5 }, 'domains'],
        ['domains a list of hashes', { domains: [{ host: 'x.example' }] }, 'domains'],
        ['name a hash', { name: { first: 'x' } }, 'name'],
        ['email not an e-mail', { email: 'not-an-email' }, 'email'],
      ])('given %s, when creating, then 400 and no row', async (_what, fields, field) => {
        const sub = unique('typed');
        const res = await service.platform.post('/schools', { school: { name: 'Typed', subdomain: sub, ...fields } });
        expect(res.status, res.text).toBe(400);
        expect(Object.keys(res.body.errors).join(' ')).toContain(field);
        expect(await countRows(schools, eq(schools.subdomain, sub))).toBe(0);
        expectNoInternals(res);
      });

      it('given metadata a string in a form body, when creating, then 400', async () => {
        const sub = unique('formtyped');
        const res = await service.platform.post('/schools', { school: { name: 'T', subdomain: sub, metadata: 'x' } }, { encoding: 'form' });
        expect(res.status, res.text).toBe(400);
        expect(await countRows(schools, eq(schools.subdomain, sub))).toBe(0);
      });
    });
  });

  describe('POST /schools/wizard', () => {
    it('given a platform credential, when running the wizard, then 201 with school, organization, library, forum and admin', async () => {
      const res = await service.platform.post('/schools/wizard', {
        school: { name: 'Escola São João', email: 'Owner@Sao-Joao.example', password: 'very-secret-pw' },
      });
      expect(res.status, res.text).toBe(201);
      const body = res.body;
      expect(Object.keys(body).sort()).toEqual(['admin', 'forum', 'library', 'organization', 'school']);
      expect(body.school).toMatchObject({ name: 'Escola São João', subdomain: 'escola-sao-joao', status: 'trial', email: 'owner@sao-joao.example' });
      expect(typeof body.school.id).toBe('number');
      expect(body.school.created_at).toMatch(ISO);
      expect(body.organization).toMatchObject({ name: 'Escola São João' });
      expect(typeof body.organization.id).toBe('number');
      expect(body.school.organization_id).toBe(body.organization.id);
      expect(typeof body.library.id).toBe('number');
      expect(typeof body.forum.id).toBe('number');
      expect(Object.keys(body.admin).sort()).toEqual(['credentials', 'email', 'full_name', 'id']);
      expect(body.admin).toMatchObject({ full_name: 'Escola São João', email: 'owner@sao-joao.example' });
      expect(typeof body.admin.id).toBe('number');
      expect(typeof body.admin.credentials).toBe('string');
      expect(res.headers.location).toBe(`/schools/${body.school.id}`);

      // Rows: one of each, tied to the new school; the admin's password and token are stored hashed.
      const schoolId = body.school.id;
      expect(await countRows(libraries, and(eq(libraries.schoolId, schoolId), eq(libraries.id, body.library.id)))).toBe(1);
      expect(await countRows(forums, and(eq(forums.schoolId, schoolId), eq(forums.id, body.forum.id)))).toBe(1);
      const [admin] = await service.db.select().from(users).where(eq(users.id, body.admin.id));
      expect(admin).toMatchObject({ schoolId, type: 'Admin', email: 'owner@sao-joao.example' });
      expect(admin.passwordHash).toBeTruthy();
      expect(admin.passwordHash).not.toContain('very-secret-pw');
      const tokens = await service.db.select().from(apiTokens).where(eq(apiTokens.schoolId, schoolId));
      expect(tokens).toHaveLength(1);
      expect(tokens[0]).toMatchObject({ role: 'admin', userId: admin.id });
      expect(tokens[0].tokenDigest).not.toBe(body.admin.credentials);
      expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, schoolId))).toBe(1);
    });

    it("given the wizard's credential, when used at once, then it reads its own school and only it", async () => {
      const res = await service.platform.post('/schools/wizard', { school: { name: 'Instant', email: 'i@instant.example', password: 'secret-password' } });
      expect(res.status).toBe(201);
      const admin = service.client(res.body.admin.credentials);
      const own = await admin.get(`/schools/${res.body.school.id}`);
      expect(own.status).toBe(200);
      expect(own.body.id).toBe(res.body.school.id);
      expectFieldError(await admin.get(`/schools/${a.id}`), 404, 'base', 'not_found');
      const list = await admin.get('/schools');
      expect(list.body.map((s: { id: number }) => s.id)).toEqual([res.body.school.id]);
    });

    it('given a name whose subdomain is taken, when running the wizard again, then a numeric suffix is added', async () => {
      const subs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await service.platform.post('/schools/wizard', { school: { name: 'Clone Academy', email: `c${i}@clone.example`, password: 'secret-password' } });
        expect(res.status, res.text).toBe(201);
        subs.push(res.body.school.subdomain);
      }
      expect(subs).toEqual(['clone-academy', 'clone-academy-2', 'clone-academy-3']);
    });

    it('given a name that infers a reserved subdomain, when running the wizard, then the subdomain is one POST /schools would accept', async () => {
      for (const name of ['WWW', 'Static', 'Mail']) {
        const res = await service.platform.post('/schools/wizard', { school: { name, email: `${name}@reserved.example`, password: 'secret-password' } });
        expect(res.status, res.text).toBe(201);
        expect(res.body.school.subdomain).toBe(`${name.toLowerCase()}-2`);
        // The admin can send the school back unchanged.
        const again = await service.client(res.body.admin.credentials).put(`/school/${res.body.school.id}`, { school: { subdomain: res.body.school.subdomain } });
        expect(again.status, again.text).toBe(200);
      }
    });

    it('given the same e-mail for two schools, when running the wizard twice, then both succeed (e-mail unique per school)', async () => {
      const email = 'owner@two-schools.example';
      const one = await service.platform.post('/schools/wizard', { school: { name: 'First Of Two', email, password: 'secret-password' } });
      const two = await service.platform.post('/schools/wizard', { school: { name: 'Second Of Two', email, password: 'secret-password' } });
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(await countRows(users, eq(users.email, email))).toBe(2);
    });

    it('given a form-urlencoded body, when running the wizard, then 201', async () => {
      const res = await service.platform.post('/schools/wizard', { school: { name: 'Form Wizard', email: 'fw@example.com', password: 'secret-password' } }, { encoding: 'form' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.school.subdomain).toBe('form-wizard');
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['no password', { name: 'No Password School', email: 'np@example.com' }, 'password', 'blank'],
      ['no email', { name: 'No Email School', password: 'secret-password' }, 'email', 'blank'],
      ['no name', { email: 'nn@example.com', password: 'secret-password' }, 'name', 'blank'],
      ['a blank name', { name: '  ', email: 'bn@example.com', password: 'secret-password' }, 'name', 'blank'],
      ['a short password', { name: 'Short Password School', email: 'sp@example.com', password: 'short' }, 'password', 'too_short'],
    ])('given %s, when running the wizard, then 422 and no rows at all', async (_what, fields, field, code) => {
      const before = { schools: await countRows(schools), orgs: await countRows(organizations), users: await countRows(users), tokens: await countRows(apiTokens) };
      const res = await service.platform.post('/schools/wizard', { school: fields });
      expectFieldError(res, 422, field, code);
      expect({ schools: await countRows(schools), orgs: await countRows(organizations), users: await countRows(users), tokens: await countRows(apiTokens) }).toEqual(before);
    });

    it('given a failure half-way (the forum cannot be written), when running the wizard, then nothing of it remains', async () => {
      // Fault injection: the forum insert (after organization, school, admin and library) fails.
      await service.db.execute(sql`create or replace function test_fail_forum() returns trigger language plpgsql as $$
        begin if new.title = 'Doomed School' then raise exception 'injected failure'; end if; return new; end $$`);
      await service.db.execute(sql`create trigger test_fail_forum before insert on forums for each row execute function test_fail_forum()`);
      try {
        const before = { schools: await countRows(schools), orgs: await countRows(organizations), users: await countRows(users), libraries: await countRows(libraries), tokens: await countRows(apiTokens) };
        const res = await service.platform.post('/schools/wizard', { school: { name: 'Doomed School', email: 'doomed@example.com', password: 'secret-password' } });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(Object.keys(res.body)).toEqual(['errors', 'details']);
        expect(res.text).not.toContain('injected failure');
        expectNoInternals(res);
        expect(await countRows(schools, eq(schools.name, 'Doomed School'))).toBe(0);
        expect(await countRows(organizations, eq(organizations.name, 'Doomed School'))).toBe(0);
        expect(await countRows(users, eq(users.email, 'doomed@example.com'))).toBe(0);
        expect({ schools: await countRows(schools), orgs: await countRows(organizations), users: await countRows(users), libraries: await countRows(libraries), tokens: await countRows(apiTokens) }).toEqual(before);
      } finally {
        await service.db.execute(sql`drop trigger test_fail_forum on forums`);
        await service.db.execute(sql`drop function test_fail_forum()`);
      }
    });

    it('given a school credential, when running the wizard, then 403 and no rows', async () => {
      const before = await countRows(schools);
      const res = await a.admin.post('/schools/wizard', { school: { name: 'By Admin', email: 'ba@example.com', password: 'secret-password' } });
      expectFieldError(res, 403, 'base', 'forbidden');
      expect(await countRows(schools)).toBe(before);
    });

    it('given malformed bodies, when running the wizard, then 400', async () => {
      const bad = await service.platform.request('POST', '/schools/wizard', undefined, { raw: 'not json', headers: { 'content-type': 'application/json' } });
      expectFieldError(bad, 400, 'base', 'bad_request');
      expectFieldError(await service.platform.post('/schools/wizard', { name: 'X', email: 'x@example.com', password: 'secret-password' }), 400, 'school', 'bad_request');
      const typed = await service.platform.post('/schools/wizard', { school: { name: 'X', email: 'x@example.com', password: { a: 1 } } });
      expect(typed.status).toBe(400);
      const email = await service.platform.post('/schools/wizard', { school: { name: 'X', email: 'not-an-email', password: 'secret-password' } });
      expect(email.status).toBe(400);
    });
  });

  describe('PUT/PATCH /school/:id and /schools/:id', () => {
    const paths = ['/school', '/schools'] as const;
    const methods = ['put', 'patch'] as const;

    it.each(paths.flatMap((p) => methods.map((m) => [m, p] as const)))(
      'given a platform credential, when %s %s/:id with JSON, then 200 with the updated school and a Location',
      async (method, path) => {
        const created = await createSchool({ email: 'old@example.com', phone: '1' });
        const res = await service.platform[method](`${path}/${created.id}`, { school: { name: `Renamed ${method}`, phone: '2', social_link_2: 'https://s2.example' } });
        expect(res.status, res.text).toBe(200);
        expect(res.headers.location).toBe(`/schools/${created.id}`);
        expect(res.body).toMatchObject({ id: created.id, name: `Renamed ${method}`, phone: '2', email: 'old@example.com', social_link_2: 'https://s2.example', subdomain: created.subdomain });
        expect(res.body.updated_at).toMatch(ISO);
        const row = await schoolRow(created.id);
        expect(row).toMatchObject({ name: `Renamed ${method}`, phone: '2', email: 'old@example.com', socialLink2: 'https://s2.example' });
      },
    );

    it('given the admin of the school, when updating it, then 200', async () => {
      const res = await a.admin.patch(`/school/${a.id}`, { school: { seo_title: 'Alpha SEO', metadata: { theme: 'dark' } } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ seo_title: 'Alpha SEO', metadata: { theme: 'dark' } });
      expect((await schoolRow(a.id)).metadata).toEqual({ theme: 'dark' });
    });

    it('given a form-urlencoded body with bracket names, when updating, then the fields and the event apply', async () => {
      const created = await createSchool();
      const res = await service.platform.put(
        `/school/${created.id}`,
        { school: { name: 'Form Updated', domains: ['form-upd.example'], social_link_5: 'https://s5.example', event: 'active' } },
        { encoding: 'form' },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ name: 'Form Updated', domains: ['form-upd.example'], social_link_5: 'https://s5.example', status: 'active' });
      expect((await schoolRow(created.id)).status).toBe('active');
    });

    it('given a multipart body, when updating, then the fields apply', async () => {
      const created = await createSchool();
      const res = await service.platform.patch(`/schools/${created.id}`, { school: { company_name: 'Multi Ltda', social_link_6: 'https://s6.example' } }, { encoding: 'multipart' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ company_name: 'Multi Ltda', social_link_6: 'https://s6.example' });
      expect((await schoolRow(created.id)).companyName).toBe('Multi Ltda');
    });

    it('given the whole fetched school sent back, when updating, then read-only fields are ignored and 200', async () => {
      const created = await createSchool({ domains: ['roundtrip.example'] });
      const fetched = (await service.platform.get(`/schools/${created.id}`)).body;
      const res = await service.platform.put(`/school/${created.id}`, { school: { ...fetched, name: 'Round Trip', status: 'canceled', id: 1 } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name: 'Round Trip', status: 'pending', domains: ['roundtrip.example'] });
    });

    it('given tokens, then they are write-only: shown masked, kept when the fetched school is sent back, a stray mask refused, null clears', async () => {
      const created = await createSchool({ crm_token: 'crm-token-0017', video_access_token: 'vat' });
      expect(created).toMatchObject({ crm_token: '****0017', video_access_token: '****' });
      const stored = await schoolRow(created.id);
      const fetched = (await service.platform.get(`/schools/${created.id}`)).body;
      expect((await service.platform.put(`/school/${created.id}`, { school: fetched })).status).toBe(200);
      expect(await schoolRow(created.id)).toMatchObject({ crmTokenCiphertext: stored.crmTokenCiphertext, videoAccessTokenCiphertext: stored.videoAccessTokenCiphertext });
      // A mask that is not the stored hint would store the mask as the token.
      expectFieldError(await service.platform.patch(`/school/${created.id}`, { school: { crm_token: '****9999' } }), 422, 'crm_token', 'invalid');
      expect((await schoolRow(created.id)).crmTokenCiphertext).toBe(stored.crmTokenCiphertext);
      const cleared = await service.platform.patch(`/school/${created.id}`, { school: { crm_token: null, video_access_token: '' } });
      expect(cleared.body).toMatchObject({ crm_token: null, video_access_token: null });
      expect(await schoolRow(created.id)).toMatchObject({ crmTokenCiphertext: null, crmTokenHint: null, videoAccessTokenCiphertext: null, videoAccessTokenHint: null });
    });

    it('given new domains, when updating, then they replace the old ones; an empty list clears them', async () => {
      const created = await createSchool({ domains: ['one.replace.example', 'two.replace.example'] });
      const res = await service.platform.patch(`/school/${created.id}`, { school: { domains: ['three.replace.example'] } });
      expect(res.body.domains).toEqual(['three.replace.example']);
      const cleared = await service.platform.patch(`/school/${created.id}`, { school: { domains: [] } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.domains).toEqual([]);
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, created.id))).toBe(0);
    });

    it("given another school's domain or subdomain, when updating, then 409 taken and no change", async () => {
      const owner = await createSchool({ domains: ['kept.example'] });
      const other = await createSchool();
      expectFieldError(await service.platform.patch(`/school/${other.id}`, { school: { domains: ['kept.example'] } }), 409, 'domains', 'taken');
      expectFieldError(await service.platform.patch(`/school/${other.id}`, { school: { name: 'Changed', subdomain: owner.subdomain } }), 409, 'subdomain', 'taken');
      const row = await schoolRow(other.id);
      expect(row).toMatchObject({ name: 'Created', subdomain: other.subdomain });
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, other.id))).toBe(0);
    });

    it('given its own subdomain, when updating, then 200 (a school does not conflict with itself)', async () => {
      const created = await createSchool();
      const res = await service.platform.patch(`/school/${created.id}`, { school: { subdomain: created.subdomain.toUpperCase() } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.subdomain).toBe(created.subdomain);
    });

    it('given a cleared name or an invalid subdomain, when updating, then 422 and no change', async () => {
      const created = await createSchool();
      expectFieldError(await service.platform.patch(`/school/${created.id}`, { school: { name: null } }), 422, 'name', 'blank');
      expectFieldError(await service.platform.patch(`/school/${created.id}`, { school: { name: '' } }), 422, 'name', 'blank');
      expectFieldError(await service.platform.patch(`/school/${created.id}`, { school: { phone: '9', subdomain: 'No Good' } }), 422, 'subdomain', 'invalid');
      const row = await schoolRow(created.id);
      expect(row).toMatchObject({ name: 'Created', subdomain: created.subdomain, phone: null });
    });

    describe('events', () => {
      it('given a pending school, when events walk its lifecycle, then each valid one changes status and is recorded', async () => {
        const created = await createSchool();
        const steps: [string, string][] = [
          ['try_out', 'trial'],
          ['active', 'active'],
          ['overdue', 'overdue'],
          ['block', 'blocked'],
          ['suspend', 'suspended'],
          ['active', 'active'],
          ['cancel', 'canceled'],
        ];
        for (const [event, status] of steps) {
          const res = await service.platform.patch(`/school/${created.id}`, { school: { event } });
          expect(res.status, `${event}: ${res.text}`).toBe(200);
          expect(res.body.status).toBe(status);
          expect((await schoolRow(created.id)).status).toBe(status);
        }
        const changes = await service.db.select().from(schoolStatusChanges).where(eq(schoolStatusChanges.schoolId, created.id)).orderBy(schoolStatusChanges.id);
        expect(changes.map((c) => [c.event, c.fromStatus, c.toStatus])).toEqual([
          ['try_out', 'pending', 'trial'],
          ['active', 'trial', 'active'],
          ['overdue', 'active', 'overdue'],
          ['block', 'overdue', 'blocked'],
          ['suspend', 'blocked', 'suspended'],
          ['active', 'suspended', 'active'],
          ['cancel', 'active', 'canceled'],
        ]);
      });

      it.each<[string, string, string[]]>([
        ['pending', 'overdue', []],
        ['pending', 'block', []],
        ['trial', 'try_out', ['try_out']],
        ['trial', 'overdue', ['try_out']],
        ['active', 'try_out', ['active']],
        ['suspended', 'overdue', ['try_out', 'suspend']],
      ])('given a %s school, when the event %s is sent, then 422 invalid_transition and nothing changes', async (_state, event, setup) => {
        const created = await createSchool();
        for (const e of setup) expect((await service.platform.patch(`/school/${created.id}`, { school: { event: e } })).status).toBe(200);
        const rowBefore = await schoolRow(created.id);
        const changesBefore = await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, created.id));
        const res = await service.platform.put(`/school/${created.id}`, { school: { name: 'Should Not Stick', event } });
        expectFieldError(res, 422, 'event', 'invalid_transition');
        const rowAfter = await schoolRow(created.id);
        expect(rowAfter.status).toBe(rowBefore.status);
        expect(rowAfter.name).toBe('Created');
        expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, created.id))).toBe(changesBefore);
      });

      it('given a canceled school, when any event is sent, then 422: cancel is final', async () => {
        const created = await createSchool();
        expect((await service.platform.patch(`/school/${created.id}`, { school: { event: 'cancel' } })).body.status).toBe('canceled');
        for (const event of ['try_out', 'block', 'active', 'overdue', 'suspend', 'cancel']) {
          const res = await service.platform.patch(`/school/${created.id}`, { school: { event } });
          expectFieldError(res, 422, 'event', 'invalid_transition');
        }
        expect((await schoolRow(created.id)).status).toBe('canceled');
      });

      it('given an event that is not one of the six, when updating, then 422 inclusion and no change', async () => {
        const created = await createSchool();
        const res = await service.platform.patch(`/school/${created.id}`, { school: { event: 'explode', name: 'No' } });
        expect(res.status, res.text).toBe(422);
        expect(res.body.details.event).toEqual([{ error: 'inclusion' }]);
        expect(res.body.errors.event).toBeDefined();
        expect(await schoolRow(created.id)).toMatchObject({ status: 'pending', name: 'Created' });
      });
    });

    describe('the gate of a blocked or suspended school (read only, cancel still allowed)', () => {
      it.each(['block', 'suspend'])('given a school its platform applied %s to, then its admin cancels it with the event alone, and nothing else writes', async (event) => {
        const s = await service.school(`Gated ${event}`);
        expect((await service.platform.patch(`/school/${s.id}`, { school: { event } })).status).toBe(200);
        const status = (await schoolRow(s.id)).status;
        // Settings, an event with them, and an event the admin may not fire from here: 403, nothing changes.
        for (const school of [{ name: 'Renamed' }, { event: 'cancel', name: 'Renamed' }, { event: 'active' }]) {
          const refused = await s.admin.put(`/school/${s.id}`, { school });
          expectFieldError(refused, 403, 'base', 'forbidden');
          expect(refused.body.errors.base[0]).toBe(`The school is ${status}: its credentials may only read`);
        }
        expect(await schoolRow(s.id)).toMatchObject({ status, name: `Gated ${event}` });
        // Reads go on, and the event alone goes through, recorded like any other.
        expect((await s.admin.get(`/schools/${s.id}`)).body.status).toBe(status);
        const canceled = await s.admin.put(`/school/${s.id}`, { school: { event: 'cancel' } });
        expect(canceled.status, canceled.text).toBe(200);
        expect(canceled.body.status).toBe('canceled');
        const [change] = await service.db.select().from(schoolStatusChanges).where(and(eq(schoolStatusChanges.schoolId, s.id), eq(schoolStatusChanges.event, 'cancel')));
        expect(change).toMatchObject({ fromStatus: status, toStatus: 'canceled' });
        // Canceled: its credentials may do nothing, reads included.
        expectFieldError(await s.admin.get(`/schools/${s.id}`), 403, 'base', 'forbidden');
      });
    });

    describe('who may update', () => {
      it("given the admin of another school, when updating, then 404 and no change", async () => {
        for (const url of [`/school/${a.id}`, `/schools/${a.id}`]) {
          expectFieldError(await b.admin.patch(url, { school: { name: 'Hijacked', event: 'cancel' } }), 404, 'base', 'not_found');
        }
        expect(await schoolRow(a.id)).toMatchObject({ name: 'Alpha Academy', status: 'trial' });
      });

      it('given a student credential, when updating its own school, then 403 and no change', async () => {
        const res = await (await studentOf(a)).put(`/school/${a.id}`, { school: { name: 'By Student' } });
        expectFieldError(res, 403, 'base', 'forbidden');
        expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
      });

      it('given a collaborator or app credential, when updating, then 403', async () => {
        for (const client of [await service.token('collaborator', a.id), await service.token('app', a.id)])
          expectFieldError(await client.patch(`/school/${a.id}`, { school: { name: 'Nope' } }), 403, 'base', 'forbidden');
        expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
      });

      it.each(['abc', '0', '99999999999', '999999'])('given the id %s, when updating, then 404', async (id) => {
        expectFieldError(await service.platform.patch(`/school/${id}`, { school: { name: 'X' } }), 404, 'base', 'not_found');
      });
    });

    describe('malformed bodies', () => {
      it.each<[string, Encoding | 'raw', unknown]>([
        ['invalid JSON', 'raw', '{"school": '],
        ['no school key', 'json', { name: 'X' }],
        ['an empty school', 'json', { school: {} }],
        ['school a string', 'json', { school: 'x' }],
        ['no school key in a form', 'form', { name: 'X' }],
      ])('given %s, when updating, then 400 and no change', async (_what, encoding, body) => {
        const res =
          encoding === 'raw'
            ? await service.platform.request('PATCH', `/school/${a.id}`, undefined, { raw: body as string, headers: { 'content-type': 'application/json' } })
            : await service.platform.patch(`/school/${a.id}`, body, { encoding });
        expect(res.status, res.text).toBe(400);
        expect(Object.keys(res.body)).toEqual(['errors', 'details']);
        expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
      });

      it.each<[string, Record<string, unknown>, string]>([
        ['metadata a string', { metadata: 'x' }, 'metadata'],
        ['domains a number', { domains: 5 }, 'domains'],
        ['event a number', { event: 3 }, 'event'],
      ])('given %s, when updating, then 400 and no change', async (_what, fields, field) => {
        const res = await service.platform.patch(`/school/${a.id}`, { school: { name: 'Typed Wrong', ...fields } });
        expect(res.status, res.text).toBe(400);
        expect(Object.keys(res.body.errors).join(' ')).toContain(field);
        expect((await schoolRow(a.id)).name).toBe('Alpha Academy');
      });
    });
  });

  describe('DELETE /school/:id and /schools/:id', () => {
    it.each(['/school', '/schools'])('given a platform credential, when DELETE %s/:id, then 204, the school and its rows are gone, and then 404', async (path) => {
      const res0 = await service.platform.post('/schools/wizard', { school: { name: `Doomed ${path}`, email: 'gone@example.com', password: 'secret-password' } });
      const id = res0.body.school.id;
      const res = await service.platform.delete(`${path}/${id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await countRows(schools, eq(schools.id, id))).toBe(0);
      expect(await countRows(users, eq(users.schoolId, id))).toBe(0);
      expect(await countRows(libraries, eq(libraries.schoolId, id))).toBe(0);
      expect(await countRows(apiTokens, eq(apiTokens.schoolId, id))).toBe(0);
      expectFieldError(await service.platform.get(`/schools/${id}`), 404, 'base', 'not_found');
      expectFieldError(await service.platform.delete(`${path}/${id}`), 404, 'base', 'not_found');
      // Its admin credential went with it.
      expectFieldError(await service.client(res0.body.admin.credentials).get(`/schools/${id}`), 401, 'base', 'unauthenticated');
    });

    it('given a school credential (even the school admin), when deleting, then 403 and the school remains', async () => {
      for (const client of [a.admin, b.admin, await studentOf(a), await service.token('app', a.id)])
        expectFieldError(await client.delete(`/school/${a.id}`), 403, 'base', 'forbidden');
      expect(await countRows(schools, eq(schools.id, a.id))).toBe(1);
    });

    it.each(['abc', '0', '99999999999', '999999'])('given the id %s, when deleting, then 404', async (id) => {
      expectFieldError(await service.platform.delete(`/school/${id}`), 404, 'base', 'not_found');
    });
  });

  describe('routing', () => {
    it('given a known path with a method it does not answer, when called, then 405 with Allow', async () => {
      const res = await service.platform.post(`/school/${a.id}`, { school: { name: 'X' } });
      expect(res.status).toBe(405);
      expect(String(res.headers.allow)).toMatch(/PUT/);
      expect(Object.keys(res.body)).toEqual(['errors', 'details']);
    });

    it('given a path that is no route, when called, then 404 route_not_found', async () => {
      expectFieldError(await service.platform.get('/schoolz'), 404, 'base', 'route_not_found');
    });
  });
});
