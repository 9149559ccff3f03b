import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schoolDomains, schoolStatusChanges } from '../../src/modules/schools/school.table.js';
import type { Encoding, Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { unique } from '../support/rows.js';
import { schoolFixtures } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// REST face of Schools: PUT/PATCH /school/:id and /schools/:id.
// Fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { schoolRow, countRows, studentOf } = schoolFixtures(() => service);
  /** A school made with POST /schools (status pending). */
  async function createSchool(fields: Record<string, unknown> = {}) {
    const res = await service.platform.post('/schools', { school: { name: 'Created', subdomain: unique('sub'), ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a, other: b } = w));

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
});
