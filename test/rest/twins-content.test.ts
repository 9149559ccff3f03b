import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { examQuestions } from '../../src/modules/activities/activity.table.js';
import { Fixtures } from '../support/activities.fixtures.js';
import { person, question, section } from '../support/forums.fixtures.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { type Client, type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// REST twins of the content and community resources GraphQL alone served: forums and their answers,
// libraries, library resources and images, channels, collaborative discussions, exam answers and
// questions, integration suggestions and the media processing report.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
twoSchools('Twins Content', 'Twins Content Other', (w) => {
  ({ service, school, other } = w);
  f = new Fixtures(w.service);
});

let serial = 0;
const unique = (prefix: string) => `${prefix} ${++serial}`;
async function created(res: Awaited<ReturnType<Client['post']>>, location: string) {
  expect(res.status, res.text).toBe(201);
  expect(res.headers.location).toBe(`${location}/${res.body.id}`);
  return res.body;
}
const ids = (res: { body: { id: number }[] }) => res.body.map((r) => r.id);

describe('forums and forum answers', () => {
  it('forums: CRUD at /forums; a student reads them but may not create', async () => {
    const forum = await created(await school.admin.post('/forums', { forum: { title: unique('Forum') } }), '/forums');
    expect(ids(await school.admin.get('/forums'))).toContain(forum.id);
    expect((await school.admin.put(`/forums/${forum.id}`, { forum: { title: 'Renamed' } })).body.title).toBe('Renamed');
    const student = await person(service, school, 'Student');
    expect((await student.client.get(`/forums/${forum.id}`)).status).toBe(200);
    expect((await student.client.post('/forums', { forum: { title: 'X' } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/forums/${forum.id}`));
    expect((await school.admin.delete(`/forums/${forum.id}`)).status).toBe(204);
  });

  it("GET and POST /forum_questions/:id/answers; an answer's show, update and delete; a student edits its own only", async () => {
    const q = await question(school.admin, (await section(school.admin, school.forumId)).id);
    const student = await person(service, school, 'Student');
    const mine = await created(await student.client.post(`/forum_questions/${q.id}/answers`, { forum_answer: { text: 'Mine' } }), '/forum_answers');
    expect(mine).toMatchObject({ forum_question_id: q.id, user_id: student.user.id, text: 'Mine' });
    const staff = await created(await school.admin.post(`/v1/forum_questions/${q.id}/answers.json`, { forum_answer: { text: 'Staff' } }), '/forum_answers');
    expect(ids(await student.client.get(`/forum_questions/${q.id}/answers`))).toEqual([mine.id, staff.id]);
    expect((await student.client.get(`/forum_answers/${staff.id}`)).body.text).toBe('Staff');
    expect((await student.client.put(`/forum_answers/${mine.id}`, { forum_answer: { text: 'Edited' } })).body.text).toBe('Edited');
    expect((await student.client.put(`/forum_answers/${staff.id}`, { forum_answer: { text: 'Nope' } })).status).toBeGreaterThanOrEqual(403);
    expectNotFound(await other.admin.get(`/forum_questions/${q.id}/answers`));
    expectNotFound(await other.admin.get(`/forum_answers/${mine.id}`));
    expect((await school.admin.delete(`/forum_answers/${mine.id}`)).status).toBe(204);
  });
});

describe('libraries, library resources and images', () => {
  it('a library and its resources (nested and flat), images; a student may not read the library', async () => {
    const library = await created(await school.admin.post('/libraries', { library: { name: unique('Library') } }), '/libraries');
    const nested = await created(
      await school.admin.post(`/libraries/${library.id}/library_resources`, { library_resource: { title: 'Slides', kind: 'pdf', url: 'https://cdn.example.com/a.pdf' } }),
      '/library_resources',
    );
    expect(nested).toMatchObject({ library_id: library.id, title: 'Slides' });
    const flat = await created(await school.admin.post('/library_resources', { library_resource: { title: 'Notes', library_id: library.id } }), '/library_resources');
    await created(await school.admin.post(`/library_resources?library_id=${library.id}`, { library_resource: { title: 'Extra' } }), '/library_resources').then((r) => school.admin.delete(`/library_resources/${r.id}`));
    expect(ids(await school.admin.get(`/libraries/${library.id}/library_resources`))).toEqual([nested.id, flat.id]);
    expect(ids(await school.admin.get(`/library_resources?library_id=${library.id}`))).toEqual([nested.id, flat.id]);
    expect((await school.admin.put(`/library_resources/${flat.id}`, { library_resource: { title: 'Renamed' } })).body.title).toBe('Renamed');
    expect((await school.admin.delete(`/library_resources/${flat.id}`)).status).toBe(204);
    const image = await created(await school.admin.post('/images', { image: { title: 'Logo', url: 'https://cdn.example.com/logo.png', width: 10, height: 10 } }), '/images');
    expect((await school.admin.get(`/images/${image.id}`)).body).toMatchObject({ title: 'Logo', width: 10 });
    const student = await person(service, school, 'Student');
    expect((await student.client.get(`/libraries/${library.id}`)).status).toBe(403);
    expect((await student.client.post('/images', { image: { title: 'X', url: 'https://cdn.example.com/x.png' } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/library_resources/${nested.id}`));
    expectNotFound(await other.admin.post(`/libraries/${library.id}/library_resources`, { library_resource: { title: 'X' } }));
    expectNotFound(await other.admin.get(`/images/${image.id}`));
  });
});

describe('channels', () => {
  it("CRUD at /channels, filtered by school product; a student may not create one; another school's is 404", async () => {
    const product = await f.product(school);
    const channel = await created(await school.admin.post('/channels', { channel: { name: unique('Channel'), school_product_id: product.id } }), '/channels');
    expect(channel).toMatchObject({ school_product_id: product.id });
    expect(ids(await school.admin.get(`/channels?school_product_id=${product.id}`))).toEqual([channel.id]);
    expect((await school.admin.put(`/channels/${channel.id}`, { channel: { name: 'Renamed' } })).body.name).toBe('Renamed');
    const student = await person(service, school, 'Student');
    expect((await student.client.post('/channels', { channel: { name: 'X', school_product_id: product.id } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/channels/${channel.id}`));
    expect((await school.admin.delete(`/channels/${channel.id}`)).status).toBe(204);
  });
});

describe('collaborative discussions', () => {
  it('under a lesson or flat; read by a student, written by staff', async () => {
    const lesson = await f.lesson(school);
    const nested = await created(await school.admin.post(`/lessons/${lesson.id}/collaborative_discussions`, { collaborative_discussion: { title: unique('Talk') } }), '/collaborative_discussions');
    expect(nested.lesson_id).toBe(lesson.id);
    const flat = await created(
      await school.admin.post('/collaborative_discussions', { collaborative_discussion: { title: unique('Talk'), lesson_id: lesson.id } }),
      '/collaborative_discussions',
    );
    expect(ids(await school.admin.get(`/collaborative_discussions?lesson_id=${lesson.id}`))).toEqual([nested.id, flat.id]);
    expect((await school.admin.put(`/collaborative_discussions/${flat.id}`, { collaborative_discussion: { title: 'Renamed' } })).body.title).toBe('Renamed');
    const student = await person(service, school, 'Student');
    expect((await student.client.get(`/collaborative_discussions/${nested.id}`)).status).toBe(200);
    expect((await student.client.post(`/lessons/${lesson.id}/collaborative_discussions`, { collaborative_discussion: { title: 'X' } })).status).toBe(403);
    expectNotFound(await other.admin.get(`/collaborative_discussions/${nested.id}`));
    expectNotFound(await other.admin.post(`/lessons/${lesson.id}/collaborative_discussions`, { collaborative_discussion: { title: 'X' } }));
    expect((await school.admin.delete(`/collaborative_discussions/${flat.id}`)).status).toBe(204);
  });
});

describe('exam answers and questions', () => {
  it('attempts created, listed (by activity, by enrollment), graded and deleted; a question shown to staff only', async () => {
    const lesson = await f.lesson(school);
    const activity = await f.activity(school, lesson.id, {}, [{ title: 'Explain recursion', type: 'essay' }]);
    const product = await f.product(school);
    const enrollment = await f.enrollment(school, product);
    const attempt = await created(await school.admin.post('/exam_answers', { exam_answer: { activity_id: activity.id, student_id: enrollment.studentId, enrollment_id: enrollment.id } }), '/exam_answers');
    expect(attempt).toMatchObject({ activity_id: activity.id, enrollment_id: enrollment.id });
    expect(ids(await school.admin.get(`/exam_answers?activity_id=${activity.id}`))).toEqual([attempt.id]);
    expect(ids(await school.admin.get(`/exam_answers?enrollment_id=${enrollment.id}`))).toEqual([attempt.id]);
    const graded = await school.admin.put(`/exam_answers/${attempt.id}`, { exam_answer: { grade: 7 } });
    expect(graded.status, graded.text).toBe(200);
    expect(graded.body.grade).toBe(7);
    const [questionRow] = await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, activity.id));
    expect((await school.admin.get(`/exam_questions/${questionRow.id}`)).body).toMatchObject({ id: questionRow.id, activity_id: activity.id, title: 'Explain recursion' });
    const student = await person(service, school, 'Student');
    expect((await student.client.get(`/exam_questions/${questionRow.id}`)).status).toBe(403);
    expectNotFound(await other.admin.get(`/exam_questions/${questionRow.id}`));
    expectNotFound(await other.admin.get(`/exam_answers/${attempt.id}`));
    // The activity filters the school's attempts: another school's filter finds none of ours.
    expect((await other.admin.get(`/exam_answers?activity_id=${activity.id}`)).body).toEqual([]);
    expect((await school.admin.delete(`/exam_answers/${attempt.id}`)).status).toBe(204);
  });

  it('a student lists only its own attempts and may not delete one', async () => {
    const { course, lesson } = await f.courseWithLesson(school);
    const activity = await f.activity(school, lesson.id);
    const product = await f.product(school, course);
    const me = await f.studentClient(school);
    const mine = await f.enrollment(school, product, { studentId: me.id });
    const theirs = await f.enrollment(school, product);
    const attempt = await created(await me.client.post('/exam_answers', { exam_answer: { activity_id: activity.id, enrollment_id: mine.id } }), '/exam_answers');
    await created(await school.admin.post('/exam_answers', { exam_answer: { activity_id: activity.id, student_id: theirs.studentId, enrollment_id: theirs.id } }), '/exam_answers');
    expect(ids(await me.client.get(`/exam_answers?activity_id=${activity.id}`))).toEqual([attempt.id]);
    expect((await me.client.delete(`/exam_answers/${attempt.id}`)).status).toBe(403);
  });
});

describe('integration suggestions and the media processing report', () => {
  it('GET /integrations/suggestions is the platform’s; a school admin is refused', async () => {
    expect((await school.admin.post('/integrations/suggestions', { suggestion: { name: 'Zapier', description: 'Please', url: 'https://zapier.com' } })).status).toBe(201);
    const listed = await service.platform.get('/integrations/suggestions');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((s: { name: string }) => s.name)).toContain('Zapier');
    expect((await school.admin.get('/integrations/suggestions')).status).toBe(403);
  });

  it("PUT /media_processing/:id reports a media's processing (an app credential); a school admin is refused, another school's app gets 404", async () => {
    const resource = await created(await school.admin.post(`/libraries/${school.libraryId}/library_resources`, { library_resource: { title: 'R' } }), '/library_resources');
    const res = await school.admin.post('/media', { media: { title: unique('Media'), type: 'Media', host_key: unique('key'), library_resource_id: resource.id } });
    expect(res.status, res.text).toBe(201);
    const app = await service.token('app', school.id);
    const reported = await app.put(`/media_processing/${res.body.id}`, { status: 'processing' });
    expect(reported.status, reported.text).toBe(200);
    expect(reported.body.id).toBe(res.body.id);
    expect((await school.admin.put(`/media_processing/${res.body.id}`, { status: 'ready' })).status).toBe(403);
    expectNotFound(await (await service.token('app', other.id)).put(`/media_processing/${res.body.id}`, { status: 'ready' }));
  });
});
