import { eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { schools } from '../../src/db/school.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { countRows, unique } from './rows.js';
import type { Client, Service, TestSchool } from './service.js';

/**
 * The schools family's fixtures, for its REST and GraphQL tests: users straight into the table (their
 * API is another family's) and the reads the tests check. `service` is read when a fixture runs.
 */
export function schoolFixtures(service: () => Service) {
  async function person(schoolId: number, type: 'Student' | 'Collaborator' | 'Admin', email: string) {
    const [row] = await service().db.insert(users).values({ schoolId, type, fullName: `${type} ${email}`, email }).returning();
    return row;
  }
  return {
    person,
    /** The school's row (a GraphQL ID or a REST id). */
    async schoolRow(id: number | string) {
      const [row] = await service().db.select().from(schools).where(eq(schools.id, Number(id)));
      return row;
    },
    countRows: (table: PgTable, where?: SQL) => countRows(service(), table, where),
    /** A credential of a new student of the school. */
    async studentOf(school: TestSchool): Promise<Client> {
      const s = await person(school.id, 'Student', `${unique('student')}@example.com`);
      return service().token('student', school.id, s.id);
    },
  };
}
