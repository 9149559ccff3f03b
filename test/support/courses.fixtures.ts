import { asc, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { activities, examQuestionAssertions, examQuestionOptions, examQuestions } from '../../src/modules/activities/activity.table.js';
import { courseModuleLinks, courseModules, courses, lessons } from '../../src/modules/courses/course.table.js';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { media } from '../../src/modules/media/media.table.js';
import { pathCourses, paths } from '../../src/modules/paths/path.table.js';
import { schoolProductCourses, schoolProductPaths } from '../../src/modules/school-products/school-product-content.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './fingerprint.js';
import { type Client, type Reply, type Service, startTwoSchools, type TestSchool } from './service.js';

// Fixtures and helpers shared by the courses, course-modules and lessons tests. Rows whose API
// another engineer builds (products' content, paths, enrollments, activities) are inserted with drizzle.

let serial = 0;
export const next = () => ++serial;

export function fixtures(service: Service) {
  const db = () => service.db;
  return {
    async mediaItem(s: TestSchool) {
      const [row] = await db().insert(media).values({ schoolId: s.id, title: `Media ${next()}` }).returning();
      return row;
    },
    async person(s: TestSchool, type: 'Collaborator' | 'Student' = 'Student') {
      const n = next();
      const [row] = await db()
        .insert(users)
        .values({ schoolId: s.id, type, fullName: `${type} ${n}`, email: `course-${type.toLowerCase()}${n}@example.com` })
        .returning();
      return row;
    },
    async studentClient(s: TestSchool): Promise<Client> {
      const [row] = await db()
        .insert(users)
        .values({ schoolId: s.id, type: 'Student', fullName: 'Reader', email: `reader${next()}@example.com` })
        .returning();
      return service.token('student', s.id, row.id);
    },
    async product(s: TestSchool, title = `Product ${next()}`) {
      const [row] = await db().insert(schoolProducts).values({ schoolId: s.id, title }).returning();
      return row;
    },
    /** Courses of the product, at the given positions (default: in the order given). */
    async offer(productId: number, courseIds: number[], positions?: number[]) {
      const [{ schoolId }] = await db().select({ schoolId: schoolProducts.schoolId }).from(schoolProducts).where(eq(schoolProducts.id, productId));
      await db()
        .insert(schoolProductCourses)
        .values(courseIds.map((courseId, i) => ({ schoolId, schoolProductId: productId, courseId, position: positions?.[i] ?? i })));
    },
    /** A path of the school with these courses, offered by the product at `position`. */
    async pathOf(s: TestSchool, courseIds: number[], productId?: number, position = 0) {
      const [path] = await db().insert(paths).values({ schoolId: s.id, name: `Path ${next()}` }).returning();
      if (courseIds.length) await db().insert(pathCourses).values(courseIds.map((courseId, i) => ({ schoolId: s.id, pathId: path.id, courseId, position: i })));
      if (productId) await db().insert(schoolProductPaths).values({ schoolId: s.id, schoolProductId: productId, pathId: path.id, position });
      return path;
    },
    /**
     * A student's enrollment in the product: active, activated now (the test clock), unlimited. The
     * student is a new one, or the one `fields.studentId` names.
     */
    async enrollment(
      s: TestSchool,
      productId: number,
      fields: Partial<typeof enrollments.$inferInsert> = {},
    ): Promise<{ id: number; studentId: number; student: Client }> {
      const [student] = fields.studentId
        ? [{ id: fields.studentId }]
        : await db()
            .insert(users)
            .values({ schoolId: s.id, type: 'Student', fullName: 'Enrolled', email: `enrolled${next()}@example.com` })
            .returning();
      const [registration] = await db().insert(registrations).values({ schoolId: s.id, studentId: student.id }).returning();
      const [row] = await db()
        .insert(enrollments)
        .values({
          schoolId: s.id,
          registrationId: registration.id,
          studentId: student.id,
          schoolProductId: productId,
          maxAttendanceType: 'indeterminate',
          status: 'active',
          unlimited: true,
          activatedAt: service.clock.now(),
          ...fields,
        })
        .returning();
      return { id: row.id, studentId: student.id, student: await service.token('student', s.id, student.id) };
    },
    /** An activity of the lesson with questions, options and assertions (the activities API may not exist yet). */
    async activityOf(s: TestSchool, lessonId: number, title = `Exam ${next()}`) {
      const [activity] = await db()
        .insert(activities)
        .values({ schoolId: s.id, title, type: 'Exam', showComments: 'always', examLessonId: lessonId, timeLimit: 30, maxAttempts: 2 })
        .returning();
      const questions = await db()
        .insert(examQuestions)
        .values([
          { schoolId: s.id, activityId: activity.id, position: 0, title: `${title} Q1`, type: 'multiple_choice', point: 2 },
          { schoolId: s.id, activityId: activity.id, position: 1, title: `${title} Q2`, type: 'associative', comment: 'pairs', point: 3 },
        ])
        .returning();
      const options = await db()
        .insert(examQuestionOptions)
        .values([
          { schoolId: s.id, examQuestionId: questions[0].id, position: 0, title: 'Right', correct: true },
          { schoolId: s.id, examQuestionId: questions[0].id, position: 1, title: 'Wrong', correct: false },
          { schoolId: s.id, examQuestionId: questions[1].id, position: 0 },
        ])
        .returning();
      await db()
        .insert(examQuestionAssertions)
        .values([
          { schoolId: s.id, optionId: options[2].id, side: 'first', text: 'Sun' },
          { schoolId: s.id, optionId: options[2].id, side: 'second', text: 'Star' },
        ]);
      return activity;
    },
    async courseRow(id: number) {
      const [row] = await db().select().from(courses).where(eq(courses.id, id));
      return row;
    },
    async moduleRow(id: number) {
      const [row] = await db().select().from(courseModules).where(eq(courseModules.id, id));
      return row;
    },
    async lessonRow(id: number) {
      const [row] = await db().select().from(lessons).where(eq(lessons.id, id));
      return row;
    },
    /** The module ids of a course, in order. */
    async moduleIdsOf(courseId: number) {
      const rows = await db()
        .select({ id: courseModuleLinks.courseModuleId })
        .from(courseModuleLinks)
        .where(eq(courseModuleLinks.courseId, courseId))
        .orderBy(asc(courseModuleLinks.position), asc(courseModuleLinks.courseModuleId));
      return rows.map((r) => r.id);
    },
    async lessonsOf(moduleIds: number[]) {
      if (!moduleIds.length) return [];
      return db().select().from(lessons).where(inArray(lessons.courseModuleId, moduleIds)).orderBy(asc(lessons.courseModuleId), asc(lessons.position), asc(lessons.id));
    },
    /** Every row of the content tables, to prove a refused request wrote nothing. */
    snapshot: fingerprint(() => service, { courses, modules: courseModules, links: courseModuleLinks, lessons }),
  };
}

export type Fixtures = ReturnType<typeof fixtures>;

/** Runs `work` and checks that the content tables did not change. */
export function expectNoWrite(f: Fixtures, work: () => Promise<Reply>): Promise<Reply> {
  return expectNoWriteOf(f.snapshot, work);
}

/** REST helpers that create through the API and expect success. */
export function api(client: Client) {
  return {
    async course(fields: Record<string, unknown> = {}) {
      const res = await client.post('/courses', { course: { name: `Course ${next()}`, ...fields } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    async module(courseId: number, fields: Record<string, unknown> = {}) {
      const res = await client.post(`/courses/${courseId}/course_modules`, { course_module: { name: `Module ${next()}`, description: 'About', ...fields } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    async lesson(fields: Record<string, unknown> = {}) {
      const res = await client.post('/lessons', { lesson: { title: `Lesson ${next()}`, type: 'Video', ...fields } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
  };
}

/** The ids of a list reply. */
export const ids = (res: Reply) => {
  expect(res.status, res.text).toBe(200);
  expect(Array.isArray(res.body)).toBe(true);
  return (res.body as { id: number }[]).map((r) => r.id);
};

/** The course family's set-up: the service, two schools, the fixtures and the main school's API helpers. */
export async function startCourses(school: string, other: string) {
  const started = await startTwoSchools(school, other);
  return { ...started, f: fixtures(started.service), make: api(started.school.admin) };
}
