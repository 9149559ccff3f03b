import { beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../src/db/school.table.js';
import type { Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { schoolFixtures } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// REST face of Schools: who may call each route, GET /schools and GET /schools/:id.
// Fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { schoolRow, countRows, person, studentOf } = schoolFixtures(() => service);

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a, other: b } = w));

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
});
