import { describe, expect, it } from 'vitest';
import { api } from '../support/courses.fixtures.js';
import { dataOf } from '../support/graphql.js';
import { type Service, type TestSchool } from '../support/service.js';
import { expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// The Edools v1 clients' content and progress routes beyond the spec: a course content is a lesson,
// a lessons progress is a lesson progress, an exam answer is an attempt at an activity.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Edools Content', 'Edools Content Other', (w) => ({ service, school, other } = w));

let serial = 0;
const reply201 = (res: { status: number; text: string; body: any }) => {
  expect(res.status, res.text).toBe(201);
  return res.body;
};

/** A module of a new course, in a product, with a student enrolled (active) in the product. */
async function enrolled(s: TestSchool) {
  const make = api(s.admin);
  const course = await make.course();
  const module = await make.module(course.id);
  const product = reply201(await s.admin.post('/school_products', { school_product: { title: `Product ${++serial}`, course_ids: [course.id] } }));
  const person = reply201(await s.admin.post('/students', { user: { first_name: 'Learner', last_name: `${++serial}`, email: `content-learner${serial}@example.com` } }));
  const registered = await dataOf(s.admin, 'mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } errors { code } } }', {
    input: { studentId: person.id },
  });
  const enrollment = reply201(
    await s.admin.post('/enrollments', {
      enrollment: { registration_id: Number(registered.createRegistration.registration.id), school_product_id: product.id, max_attendance_type: 'indeterminate', unlimited: true, status: 'active' },
    }),
  );
  return { course, module, product, studentId: person.id as number, enrollment, student: await service.token('student', s.id, person.id) };
}

describe('/course_modules/:id/course_contents and /course_contents/:id', () => {
  it('POST under the module (201, Location), GET the list and one, PUT, DELETE', async () => {
    const { module } = await enrolled(school);
    const res = await school.admin.post(`/v1/course_modules/${module.id}/course_contents.json`, { course_content: { title: 'Old name', type: 'Video' } });
    const content = reply201(res);
    expect(content).toMatchObject({ id: expect.any(Number), title: 'Old name', course_module_id: module.id });
    expect(res.headers.location).toBe(`/course_contents/${content.id}`);
    const list = await school.admin.get(`/course_modules/${module.id}/course_contents`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((l: { id: number }) => l.id)).toEqual([content.id]);
    expect((await school.admin.get(`/api/course_contents/${content.id}`)).body).toMatchObject({ id: content.id, title: 'Old name' });
    const updated = await school.admin.put(`/course_contents/${content.id}`, { course_content: { title: 'New name' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.title).toBe('New name');
    expect((await school.admin.delete(`/course_contents/${content.id}`)).status).toBe(204);
    expectNotFound(await school.admin.get(`/course_contents/${content.id}`));
  });

  it("another school's module and lesson are 404; a student may not write content", async () => {
    const theirs = await enrolled(other);
    const lesson = reply201(await other.admin.post(`/course_modules/${theirs.module.id}/course_contents`, { course_content: { title: 'Theirs', type: 'Video' } }));
    expectNotFound(await school.admin.get(`/course_modules/${theirs.module.id}/course_contents`));
    expectNotFound(await school.admin.post(`/course_modules/${theirs.module.id}/course_contents`, { course_content: { title: 'X', type: 'Video' } }));
    expectNotFound(await school.admin.get(`/course_contents/${lesson.id}`));
    expectNotFound(await school.admin.put(`/course_contents/${lesson.id}`, { course_content: { title: 'X' } }));
    expectNotFound(await school.admin.delete(`/course_contents/${lesson.id}`));
    const mine = await enrolled(school);
    expect((await mine.student.post(`/course_modules/${mine.module.id}/course_contents`, { course_content: { title: 'X', type: 'Video' } })).status).toBe(403);
  });
});

describe('lessons_progresses', () => {
  it('a student records progress under its enrollment (201); staff read it by enrollment, student and product', async () => {
    const e = await enrolled(school);
    const lesson = reply201(await school.admin.post(`/course_modules/${e.module.id}/course_contents`, { course_content: { title: 'Watch', type: 'Video' } }));
    const res = await e.student.post(`/enrollments/${e.enrollment.id}/lessons_progresses`, { lessons_progress: { lesson_id: lesson.id, completed: true, time_spent: 30 } });
    const progress = reply201(res);
    expect(progress).toMatchObject({ enrollment_id: e.enrollment.id, lesson_id: lesson.id, student_id: e.studentId, time_spent: 30, completed_at: expect.any(String) });
    for (const path of [`/enrollments/${e.enrollment.id}`, `/students/${e.studentId}`, `/school_products/${e.product.id}`]) {
      const list = await school.admin.get(`/v1${path}/lessons_progresses.json`);
      expect(list.status, `${path}: ${list.text}`).toBe(200);
      expect(list.body.map((p: { id: number }) => p.id)).toEqual([progress.id]);
    }
    expect((await e.student.get(`/enrollments/${e.enrollment.id}/lessons_progresses`)).body.map((p: { id: number }) => p.id)).toEqual([progress.id]);
  });

  it('a missing lesson_id is 422 naming it (blank), as every missing required field of a create', async () => {
    const e = await enrolled(school);
    expectFieldError(await e.student.post(`/enrollments/${e.enrollment.id}/lessons_progresses`, { lessons_progress: { completed: true } }), 422, 'lesson_id', 'blank');
  });

  it("another school's enrollment, student and product are 404; a student reads no one else's progress", async () => {
    const theirs = await enrolled(other);
    expectNotFound(await school.admin.get(`/enrollments/${theirs.enrollment.id}/lessons_progresses`));
    expectNotFound(await school.admin.get(`/students/${theirs.studentId}/lessons_progresses`));
    expectNotFound(await school.admin.get(`/school_products/${theirs.product.id}/lessons_progresses`));
    expectNotFound(await school.admin.post(`/enrollments/${theirs.enrollment.id}/lessons_progresses`, { lesson_id: 1, lessons_progress: { completed: true } }));
    const a = await enrolled(school);
    const b = await enrolled(school);
    const res = await a.student.get(`/enrollments/${b.enrollment.id}/lessons_progresses`);
    expect([403, 404]).toContain(res.status);
  });
});

describe('/exam_answers/:id', () => {
  it('shows an attempt to staff and to its student; 404 for another school; 403/404 for another student', async () => {
    const e = await enrolled(school);
    const lesson = reply201(await school.admin.post(`/course_modules/${e.module.id}/course_contents`, { course_content: { title: 'Exam', type: 'Exam' } }));
    const activity = reply201(await school.admin.post('/activities', { activity: { title: 'Quiz', type: 'exam', show_comments: 'always', exam_lesson_id: lesson.id } }));
    const made = await dataOf(school.admin, 'mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { id } errors { field code } } }', {
      input: { activityId: activity.id, studentId: e.studentId, enrollmentId: e.enrollment.id },
    });
    expect(made.createExamAnswer.errors).toEqual([]);
    const id = Number(made.createExamAnswer.examAnswer.id);
    const shown = await school.admin.get(`/v1/exam_answers/${id}.json`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ id, activity_id: activity.id, student_id: e.studentId });
    expect((await e.student.get(`/exam_answers/${id}`)).status).toBe(200);
    const stranger = await enrolled(school);
    expect([403, 404]).toContain((await stranger.student.get(`/exam_answers/${id}`)).status);
    expectNotFound(await other.admin.get(`/exam_answers/${id}`));
  });
});
