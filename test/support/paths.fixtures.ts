import { courses } from '../../src/modules/courses/course.table.js';
import { pathCourses, paths } from '../../src/modules/paths/path.table.js';
import { schoolProductPaths } from '../../src/modules/school-products/school-product-content.table.js';
import { type Fixtures, fixtures, next } from './courses.fixtures.js';
import type { Service, TestSchool } from './service.js';

/** A path as the REST routes return it. */
export interface RestPath {
  id: number;
  school_id: number;
  name: string;
  description: string;
  image_url: string | null;
  code: string | null;
  course_ids: number[];
  created_at: string;
  updated_at: string;
}

/**
 * The paths family's fixtures, for its REST and GraphQL tests: courses, products holding paths,
 * students and enrollments, whose APIs other families build, go straight into the tables (through
 * courses.fixtures.ts where it has them). `service` is read when a fixture runs, so a test file may
 * take the fixtures before its beforeAll starts the service.
 */
export function pathFixtures(service: () => Service) {
  const db = () => service().db;
  const shared = () => fixtures(service());
  return {
    async course(s: TestSchool, name = `Course ${next()}`): Promise<number> {
      const [row] = await db().insert(courses).values({ schoolId: s.id, name }).returning();
      return row.id;
    },
    /** A product holding these paths, in this order. */
    async product(s: TestSchool, pathIds: number[] = []): Promise<number> {
      const row = await shared().product(s);
      if (pathIds.length) await db().insert(schoolProductPaths).values(pathIds.map((pathId, position) => ({ schoolId: s.id, schoolProductId: row.id, pathId, position })));
      return row.id;
    },
    /** A student of the school and its credential. */
    async student(s: TestSchool) {
      const row = await shared().person(s, 'Student');
      return { id: row.id, client: await service().token('student', s.id, row.id) };
    },
    /** An active enrollment in the product (`fields.studentId` names its student, else a new one). */
    enrollment: (...args: Parameters<Fixtures['enrollment']>) => shared().enrollment(...args),
    /** `count` paths straight into the tables, each with `coursesEach` courses of its own (for the batching tests). */
    async seedPaths(s: TestSchool, count: number, coursesEach: number) {
      const made = await db()
        .insert(paths)
        .values(Array.from({ length: count }, (_, i) => ({ schoolId: s.id, name: `Seeded ${i}`, description: 'd' })))
        .returning();
      const cs = await db()
        .insert(courses)
        .values(Array.from({ length: count * coursesEach }, (_, i) => ({ schoolId: s.id, name: `Seeded course ${i}` })))
        .returning();
      await db()
        .insert(pathCourses)
        .values(made.flatMap((p, i) => Array.from({ length: coursesEach }, (_, j) => ({ schoolId: s.id, pathId: p.id, courseId: cs[i * coursesEach + j].id, position: j }))));
      return made.map((p) => p.id);
    },
  };
}
