import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { forums } from '../../src/modules/forums/forum.table.js';
import { libraries } from '../../src/modules/library/library.table.js';
import { organizations, schools } from '../../src/db/school.table.js';
import { users } from '../../src/modules/users/user.table.js';
import type { Service, TestSchool } from '../support/service.js';
import { graphql } from '../support/graphql.js';
import { expectCleanErrors, expectExecutionError, SCHOOL, schoolFixtures, WIZARD } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Schools: schoolWizard (a school with its organization, library, forum and admin).
// Operations and fixtures: test/support/schools.fixtures.ts.

describe('Schools over GraphQL', () => {
  let service: Service;
  let a: TestSchool;

  const { countRows } = schoolFixtures(() => service);

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a } = w));

  describe('schoolWizard', () => {
    it('given a platform credential that names another school (X-School-Id), when running the wizard, then the new school and its nested objects resolve', async () => {
      const res = await service.platform
        .forSchool(a.id)
        .graphql(
          graphql(
            `mutation { schoolWizard(input: {name: "Narrowed Wizard", email: "narrowed@example.com", password: "secret-password"}) { errors { field } school { id } forum { id school { id } } library { schoolId } } }`,
          ),
        );
      expect(res.errors).toBeUndefined();
      const w = res.data.schoolWizard;
      expect(w.school.id).not.toBe(String(a.id));
      expect(w.forum.school.id).toBe(w.school.id);
      expect(w.library.schoolId).toBe(w.school.id);
    });

    it('given a platform credential, when running the wizard, then school, organization, library, forum and an admin with a working credential', async () => {
      const res = await service.platform.graphql(WIZARD, { input: { name: 'Wizard Academy', email: 'Boss@Wizard.example', password: 'secret-password' } });
      expect(res.errors).toBeUndefined();
      const w = res.data.schoolWizard;
      expect(w.errors).toEqual([]);
      expect(w.school).toMatchObject({ name: 'Wizard Academy', subdomain: 'wizard-academy', status: 'trial', email: 'boss@wizard.example', organizationId: w.organization.id });
      expect(w.organization.name).toBe('Wizard Academy');
      expect(w.admin).toMatchObject({ fullName: 'Wizard Academy', email: 'boss@wizard.example' });
      expect(await countRows(libraries, eq(libraries.id, Number(w.library.id)))).toBe(1);
      expect(await countRows(forums, eq(forums.id, Number(w.forum.id)))).toBe(1);
      const admin = service.client(w.admin.credentials);
      const own = await admin.graphql(SCHOOL, { id: w.school.id });
      expect(own.errors).toBeUndefined();
      expect(own.data.school.id).toBe(w.school.id);
      expectExecutionError(await admin.graphql(SCHOOL, { id: String(a.id) }), 'NOT_FOUND', 'school');
      const again = await service.platform.graphql(WIZARD, { input: { name: 'Wizard Academy', email: 'other@wizard.example', password: 'secret-password' } });
      expect(again.data.schoolWizard.school.subdomain).toBe('wizard-academy-2');
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['no password', { name: 'W1', email: 'w1@example.com' }, 'password', 'blank'],
      ['no email', { name: 'W2', password: 'secret-password' }, 'email', 'blank'],
      ['no name', { email: 'w3@example.com', password: 'secret-password' }, 'name', 'blank'],
      ['a short password', { name: 'W4', email: 'w4@example.com', password: 'short' }, 'password', 'too_short'],
    ])('given %s, when running the wizard, then payload errors, everything null and no rows', async (_what, input, field, code) => {
      const before = [await countRows(schools), await countRows(organizations), await countRows(users), await countRows(apiTokens)];
      const res = await service.platform.graphql(WIZARD, { input });
      expect(res.errors).toBeUndefined();
      expect(res.data.schoolWizard).toEqual({
        school: null,
        organization: null,
        library: null,
        forum: null,
        admin: null,
        errors: [expect.objectContaining({ field: [field], code })],
      });
      expect([await countRows(schools), await countRows(organizations), await countRows(users), await countRows(apiTokens)]).toEqual(before);
    });

    it('given a failure half-way, when running the wizard, then a masked INTERNAL_SERVER_ERROR and no rows remain', async () => {
      await service.db.execute(sql`create or replace function test_fail_library() returns trigger language plpgsql as $$
        begin if new.name = 'Broken Wizard' then raise exception 'injected failure in libraries'; end if; return new; end $$`);
      await service.db.execute(sql`create trigger test_fail_library before insert on libraries for each row execute function test_fail_library()`);
      try {
        const before = [await countRows(schools), await countRows(organizations), await countRows(users)];
        const res = await service.platform.graphql(WIZARD, { input: { name: 'Broken Wizard', email: 'broken@example.com', password: 'secret-password' } });
        expect(res.errors?.[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
        expect(res.errors?.[0].message).toBe('Internal server error');
        expectCleanErrors(res.errors);
        expect(JSON.stringify(res)).not.toContain('injected');
        expect([await countRows(schools), await countRows(organizations), await countRows(users)]).toEqual(before);
      } finally {
        await service.db.execute(sql`drop trigger test_fail_library on libraries`);
        await service.db.execute(sql`drop function test_fail_library()`);
      }
    });

    it('given a school credential, when running the wizard, then FORBIDDEN', async () => {
      expectExecutionError(
        await a.admin.graphql(WIZARD, { input: { name: 'No', email: 'no@example.com', password: 'secret-password' } }),
        'FORBIDDEN',
        'schoolWizard',
      );
    });
  });
});
