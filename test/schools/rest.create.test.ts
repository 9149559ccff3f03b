import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../../src/auth/secrets.js';
import { schools } from '../../src/db/school.table.js';
import { schoolDomains } from '../../src/modules/schools/school.table.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { unique } from '../support/rows.js';
import { schoolFixtures } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// REST face of Schools: POST /schools, its rules and malformed bodies.
// Fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** No SQL, stack frames or file paths in a reply. */
function expectNoInternals(res: Reply) {
  expect(res.text).not.toMatch(/\bselect\b.*\bfrom\b|\binsert into\b|\bupdate\b.*\bset\b|\bat \S+ \(|node_modules|\.ts:\d+|\.js:\d+/i);
}

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;

  const { schoolRow, countRows, studentOf } = schoolFixtures(() => service);
  /** A school made with POST /schools (status pending). */
  async function createSchool(fields: Record<string, unknown> = {}) {
    const res = await service.platform.post('/schools', { school: { name: 'Created', subdomain: unique('sub'), ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a } = w));

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
});
