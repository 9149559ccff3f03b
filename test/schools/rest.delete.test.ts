import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { libraries } from '../../src/modules/library/library.table.js';
import { schools } from '../../src/db/school.table.js';
import { users } from '../../src/modules/users/user.table.js';
import type { Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { schoolFixtures } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// REST face of Schools: DELETE /school/:id and /schools/:id, and the paths and methods that are no route.
// Fixtures: test/support/schools.fixtures.ts.

describe('Schools over REST', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { countRows, studentOf } = schoolFixtures(() => service);

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a, other: b } = w));

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
