import { asc, count, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  activities,
  examAnswers,
  examQuestionAnswers,
  examQuestionAssertions,
  examQuestionOptions,
  examQuestions,
} from '../../src/modules/activities/activity.table.js';
import { courseModuleLinks, courseModules, courses, lessons } from '../../src/modules/courses/course.table.js';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { schoolProductCourses } from '../../src/modules/school-products/school-product-content.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf } from './fingerprint.js';
import type { Client, Reply, Service, TestSchool } from './service.js';

/**
 * Fixtures of the activities tests. Courses, modules, lessons, their product links and enrollments
 * belong to families other engineers are building at the same time: they are rows inserted with
 * drizzle here. Activities, exam answers and question answers go through the API.
 */
export class Fixtures {
  private serial = 0;
  constructor(private readonly service: Service) {}

  private get db() {
    return this.service.db;
  }

  async course(s: TestSchool) {
    const [row] = await this.db.insert(courses).values({ schoolId: s.id, name: `Course ${++this.serial}` }).returning();
    return row;
  }

  /** A module linked to the given courses. */
  async module(s: TestSchool, ...linkedTo: { id: number }[]) {
    const [row] = await this.db.insert(courseModules).values({ schoolId: s.id, name: `Module ${++this.serial}` }).returning();
    if (linkedTo.length) await this.db.insert(courseModuleLinks).values(linkedTo.map((c) => ({ schoolId: s.id, courseId: c.id, courseModuleId: row.id })));
    return row;
  }

  async lesson(s: TestSchool, fields: Partial<typeof lessons.$inferInsert> = {}) {
    const [row] = await this.db
      .insert(lessons)
      .values({ schoolId: s.id, title: `Lesson ${++this.serial}`, type: 'Exam', ...fields })
      .returning();
    return row;
  }

  /** A course with one module and one lesson in it. */
  async courseWithLesson(s: TestSchool, lessonFields: Partial<typeof lessons.$inferInsert> = {}) {
    const course = await this.course(s);
    const mod = await this.module(s, course);
    const lesson = await this.lesson(s, { courseModuleId: mod.id, ...lessonFields });
    return { course, module: mod, lesson };
  }

  async product(s: TestSchool, ...withCourses: { id: number }[]) {
    const [row] = await this.db.insert(schoolProducts).values({ schoolId: s.id, title: `Product ${++this.serial}` }).returning();
    if (withCourses.length) await this.db.insert(schoolProductCourses).values(withCourses.map((c) => ({ schoolId: s.id, schoolProductId: row.id, courseId: c.id })));
    return row;
  }

  async student(s: TestSchool) {
    const n = ++this.serial;
    const [row] = await this.db
      .insert(users)
      .values({ schoolId: s.id, type: 'Student', fullName: `Student ${n}`, email: `activity-student${n}@example.com` })
      .returning();
    return row;
  }

  /** A student with a credential bound to it. */
  async studentClient(s: TestSchool): Promise<{ id: number; client: Client }> {
    const row = await this.student(s);
    return { id: row.id, client: await this.service.token('student', s.id, row.id) };
  }

  async enrollment(
    s: TestSchool,
    product: { id: number },
    fields: Partial<typeof enrollments.$inferInsert> & { studentId?: number } = {},
  ) {
    const studentId = fields.studentId ?? (await this.student(s)).id;
    const [registration] = await this.db
      .insert(registrations)
      .values({ schoolId: s.id, studentId })
      .onConflictDoUpdate({ target: [registrations.schoolId, registrations.studentId], set: { status: 'active' } })
      .returning();
    const [row] = await this.db
      .insert(enrollments)
      .values({
        schoolId: s.id,
        registrationId: registration.id,
        studentId,
        schoolProductId: product.id,
        maxAttendanceType: 'indeterminate',
        status: 'active',
        unlimited: true,
        activatedAt: new Date('2026-01-01T00:00:00Z'),
        ...fields,
      })
      .returning();
    return row;
  }

  /** An activity through the API (JSON); `questions` is the top-level exam_questions_attributes. */
  async activity(s: TestSchool, lessonId: number, fields: Record<string, unknown> = {}, questions?: unknown[]) {
    const res = await s.admin.post('/activities', {
      activity: { title: `Activity ${++this.serial}`, type: 'exam', show_comments: 'always', exam_lesson_id: lessonId, ...fields },
      ...(questions ? { exam_questions_attributes: questions } : {}),
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; title: string; exam_lesson_id: number } & Record<string, any>;
  }

  /** The question tree of an activity as stored, ordered: questions, options and assertions. */
  async tree(activityId: number) {
    const qs = await this.db
      .select()
      .from(examQuestions)
      .where(eq(examQuestions.activityId, activityId))
      .orderBy(asc(examQuestions.position), asc(examQuestions.id));
    const options = qs.length
      ? await this.db
          .select()
          .from(examQuestionOptions)
          .where(inArray(examQuestionOptions.examQuestionId, qs.map((q) => q.id)))
          .orderBy(asc(examQuestionOptions.position), asc(examQuestionOptions.id))
      : [];
    const assertions = options.length
      ? await this.db.select().from(examQuestionAssertions).where(inArray(examQuestionAssertions.optionId, options.map((o) => o.id)))
      : [];
    return qs.map((q) => ({
      title: q.title,
      type: q.type,
      comment: q.comment,
      point: q.point,
      position: q.position,
      schoolId: q.schoolId,
      options: options
        .filter((o) => o.examQuestionId === q.id)
        .map((o) => {
          const first = assertions.find((a) => a.optionId === o.id && a.side === 'first');
          const second = assertions.find((a) => a.optionId === o.id && a.side === 'second');
          return { title: o.title, correct: o.correct, position: o.position, ...(first || second ? { first: first?.text, second: second?.text } : {}) };
        }),
    }));
  }

  /** Row counts of every table of the family, to prove a refused request wrote nothing. */
  async counts() {
    const n = async (table: typeof activities | typeof examQuestions | typeof examQuestionOptions | typeof examQuestionAssertions | typeof examAnswers | typeof examQuestionAnswers) =>
      Number((await this.db.select({ n: count() }).from(table))[0].n);
    return {
      activities: await n(activities),
      questions: await n(examQuestions),
      options: await n(examQuestionOptions),
      assertions: await n(examQuestionAssertions),
      examAnswers: await n(examAnswers),
      questionAnswers: await n(examQuestionAnswers),
    };
  }

  /** Runs `work` and checks that no row of the family changed. */
  expectNoWrite(work: () => Promise<Reply>): Promise<Reply> {
    const snapshot = async () => ({
      counts: await this.counts(),
      activities: await this.db.select().from(activities).orderBy(asc(activities.id)),
      answers: await this.db.select().from(examQuestionAnswers).orderBy(asc(examQuestionAnswers.id)),
      attempts: await this.db.select().from(examAnswers).orderBy(asc(examAnswers.id)),
    });
    return expectNoWriteOf(snapshot, work);
  }
}
