import { asc, eq } from 'drizzle-orm';
import { courseModuleLinks, courseModules, courses, lessons } from '../../src/modules/courses/course.table.js';
import { extraContents } from '../../src/modules/extra-contents/extra-content.table.js';
import { media } from '../../src/modules/media/media.table.js';
import { fixtures as courseFixtures } from './courses.fixtures.js';
import { expectNoWrite as expectNoWriteOf } from './fingerprint.js';
import type { Reply, Service, TestSchool } from './service.js';

// Factories shared by the extra-contents tests. Rows whose API another engineer builds (media) or
// that are not what these tests are about (courses, lessons, products, enrollments) are inserted with drizzle.

let serial = 0;
const next = () => ++serial;

export function fixtures(service: Service) {
  const db = () => service.db;
  const base = courseFixtures(service);
  return {
    ...base,
    async media(s: TestSchool, title = `Handout ${next()}`) {
      const [row] = await db().insert(media).values({ schoolId: s.id, title }).returning();
      return row;
    },
    async course(s: TestSchool) {
      const [row] = await db().insert(courses).values({ schoolId: s.id, name: `Course ${next()}` }).returning();
      return row;
    },
    /** A course with one module holding lessons made from `specs` (in that order). */
    async courseWithLessons(s: TestSchool, specs: Partial<typeof lessons.$inferInsert>[] = [{}]) {
      const [course] = await db().insert(courses).values({ schoolId: s.id, name: `Course ${next()}` }).returning();
      const [module] = await db().insert(courseModules).values({ schoolId: s.id, name: `Module ${next()}` }).returning();
      await db().insert(courseModuleLinks).values({ schoolId: s.id, courseId: course.id, courseModuleId: module.id });
      const made = specs.length
        ? await db()
            .insert(lessons)
            .values(specs.map((spec, i) => ({ schoolId: s.id, courseModuleId: module.id, position: i, title: `Lesson ${next()}`, type: 'Video', ...spec })))
            .returning()
        : [];
      return { course, module, lessons: made.sort((a, b) => a.position - b.position) };
    },
    async lesson(s: TestSchool) {
      const [row] = await db().insert(lessons).values({ schoolId: s.id, title: `Lesson ${next()}`, type: 'Text' }).returning();
      return row;
    },
    /** An extra content straight into the table (for reads that are not about creating one). */
    async extraContent(s: TestSchool, fields: Partial<typeof extraContents.$inferInsert> & { resourceId: number; mediaId: number }) {
      const [row] = await db()
        .insert(extraContents)
        .values({ schoolId: s.id, order: 0, available: true, downloadable: false, ...fields })
        .returning();
      return row;
    },
    async extraRow(id: number) {
      const [row] = await db().select().from(extraContents).where(eq(extraContents.id, id));
      return row;
    },
    async allExtraRows() {
      return db().select().from(extraContents).orderBy(asc(extraContents.id));
    },
  };
}

export type ExtraFixtures = ReturnType<typeof fixtures>;

/** Runs `work` and checks that the extra_contents table did not change. */
export function expectNoWrite(f: ExtraFixtures, work: () => Promise<Reply>): Promise<Reply> {
  return expectNoWriteOf(f.allExtraRows, work);
}

export { ids } from './courses.fixtures.js';
