import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { forums } from '../../src/modules/forums/forum.table.js';
import { libraries } from '../../src/modules/library/library.table.js';
import { organizations, schools } from '../../src/db/school.table.js';
import { schoolStatusChanges } from '../../src/modules/schools/school.table.js';
import { users } from '../../src/modules/users/user.table.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { schoolFixtures } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// REST face of Schools: POST /schools/wizard (a school with its organization, library, forum and admin).
// Fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** No SQL, stack frames or file paths in a reply. */
function expectNoInternals(res: Reply) {
  expect(res.text).not.toMatch(/\bselect\b.*\bfrom\b|\binsert into\b|\bupdate\b.*\bset\b|\bat \S+ \(|node_modules|\.ts:\d+|\.js:\d+/i);
}

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;

  const { countRows } = schoolFixtures(() => service);

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a } = w));

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
});
