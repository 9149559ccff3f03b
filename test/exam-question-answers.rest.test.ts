import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { examQuestionAnswers, examQuestionOptions, examQuestions } from '../src/modules/activities/activity.table.js';
import { Fixtures } from './support/activities.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of ExamQuestionAnswer: GET/POST /exam_questions/:exam_question_id/exam_question_answers,
// GET/PUT/PATCH/DELETE /v1/exam_question_answers/:id (the spec's explicit /v1; the bare path works too).
// Attempts (ExamAnswer) have no REST route: they are made through GraphQL's createExamAnswer.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;

interface Setup {
  activityId: number;
  choice: number;
  essay: number;
  associative: number;
  right: number;
  wrong: number;
  pair: number;
}
let main: Setup;
let foreign: Setup;
/** A student of the school, with its credential and an attempt at the main activity. */
let alice: { id: number; client: Client; attempt: number };
let bob: { id: number; client: Client; attempt: number };

async function setup(s: TestSchool): Promise<Setup> {
  const { lesson } = await fx.courseWithLesson(s);
  const activity = await fx.activity(s, lesson.id, {}, [
    { title: 'Pick', options_attributes: [{ title: 'Right', correct: true }, { title: 'Wrong' }] },
    { title: 'Write', type: 'essay' },
    { title: 'Pair', type: 'associative', options_attributes: [{ first_assertion_attributes: { text: 'a' }, second_assertion_attributes: { text: 'b' } }] },
  ]);
  const questions = await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, activity.id)).orderBy(asc(examQuestions.position));
  const options = async (questionId: number) =>
    (await service.db.select().from(examQuestionOptions).where(eq(examQuestionOptions.examQuestionId, questionId)).orderBy(asc(examQuestionOptions.position))).map((o) => o.id);
  const [right, wrong] = await options(questions[0].id);
  const [pair] = await options(questions[2].id);
  return { activityId: activity.id, choice: questions[0].id, essay: questions[1].id, associative: questions[2].id, right, wrong, pair };
}

/** An attempt made by the school's admin for a student. */
async function attempt(s: TestSchool, activityId: number, studentId: number): Promise<number> {
  const res = await s.admin.graphql(
    'mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { id } errors { field code } } }',
    { input: { activityId, studentId } },
  );
  expect(res.data.createExamAnswer.errors).toEqual([]);
  return Number(res.data.createExamAnswer.examAnswer.id);
}

async function person(s: TestSchool, activityId: number) {
  const student = await fx.studentClient(s);
  return { ...student, attempt: await attempt(s, activityId, student.id) };
}

async function answerRow(id: number) {
  return (await service.db.select().from(examQuestionAnswers).where(eq(examQuestionAnswers.id, id)))[0];
}

async function answer(questionId: number, fields: Record<string, unknown>, client: Client = school.admin) {
  const res = await client.post(`/exam_questions/${questionId}/exam_question_answers`, { exam_question_answer: fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

twoSchools('Answering School', 'Other School', async (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);
  main = await setup(school);
  foreign = await setup(other);
  alice = await person(school, main.activityId);
  bob = await person(school, main.activityId);
});

describe('POST /exam_questions/:exam_question_id/exam_question_answers', () => {
  it('given an attempt and the correct option, then 201 with the answer, a /v1 Location, and correct computed as true', async () => {
    const res = await school.admin.post(`/exam_questions/${main.choice}/exam_question_answers`, {
      exam_question_answer: { exam_answer_id: alice.attempt, exam_question_option_id: main.right },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/v1/exam_question_answers/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      exam_question_id: main.choice,
      exam_answer_id: alice.attempt,
      exam_question_option_id: main.right,
      text: null,
      correct: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await answerRow(res.body.id)).toMatchObject({ examQuestionId: main.choice, examAnswerId: alice.attempt, examQuestionOptionId: main.right, correct: true });
  });

  it('given the wrong option, then correct is false; given only exam_answer_id (the spec body), then correct is null', async () => {
    expect((await answer(main.choice, { exam_answer_id: alice.attempt, exam_question_option_id: main.wrong })).correct).toBe(false);
    const bare = await answer(main.choice, { exam_answer_id: alice.attempt });
    expect(bare).toMatchObject({ exam_question_option_id: null, correct: null, text: null });
  });

  it('given an associative option, then it is stored and correct stays null (not graded automatically)', async () => {
    const body = await answer(main.associative, { exam_answer_id: alice.attempt, exam_question_option_id: main.pair });
    expect(body).toMatchObject({ exam_question_option_id: main.pair, correct: null });
  });

  it('given a form-urlencoded essay answer, then 201 with the text', async () => {
    const raw = `exam_question_answer[exam_answer_id]=${alice.attempt}&exam_question_answer[text]=Recursion+is+recursion`;
    const res = await school.admin.post(`/exam_questions/${main.essay}/exam_question_answers`, undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ exam_answer_id: alice.attempt, text: 'Recursion is recursion', correct: null });
    expect((await answerRow(res.body.id)).text).toBe('Recursion is recursion');
  });

  it('given a multipart body and the /v1 prefix, then 201', async () => {
    const res = await school.admin.post(
      `/v1/exam_questions/${main.choice}/exam_question_answers`,
      { exam_question_answer: { exam_answer_id: String(bob.attempt), exam_question_option_id: String(main.right) } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ exam_answer_id: bob.attempt, correct: true });
  });

  it("given a student credential and its own attempt, then 201; another student's attempt is not found", async () => {
    const own = await answer(main.choice, { exam_answer_id: alice.attempt, exam_question_option_id: main.right }, alice.client);
    expect(own.exam_answer_id).toBe(alice.attempt);
    const res = await fx.expectNoWrite(() =>
      alice.client.post(`/exam_questions/${main.choice}/exam_question_answers`, { exam_question_answer: { exam_answer_id: bob.attempt } }),
    );
    expectFieldError(res, 422, 'exam_answer_id', 'not_found');
  });

  describe('invalid objects: 422 and nothing written', () => {
    it.each([
      ['no exam_answer_id', () => ({ text: 'x' }), 'exam_answer_id', 'blank'],
      ['an unknown exam_answer_id', () => ({ exam_answer_id: 99999999 }), 'exam_answer_id', 'not_found'],
      ["another school's attempt", () => ({ exam_answer_id: 'FOREIGN' }), 'exam_answer_id', 'not_found'],
      ['an option of another question', () => ({ exam_answer_id: alice.attempt, exam_question_option_id: main.pair }), 'exam_question_option_id', 'not_found'],
      ['an unknown option', () => ({ exam_answer_id: alice.attempt, exam_question_option_id: 99999999 }), 'exam_question_option_id', 'not_found'],
    ])('given %s, then 422 on that field', async (_label, fields, field, code) => {
      let body = fields() as Record<string, unknown>;
      if (body.exam_answer_id === 'FOREIGN') body = { exam_answer_id: await attempt(other, foreign.activityId, (await fx.student(other)).id) };
      const res = await fx.expectNoWrite(() => school.admin.post(`/exam_questions/${main.choice}/exam_question_answers`, { exam_question_answer: body }));
      expectFieldError(res, 422, field, code);
    });

    it("given an attempt at another activity, then 422 invalid on exam_answer_id", async () => {
      const second = await setup(school);
      const elsewhere = await attempt(school, second.activityId, alice.id);
      const res = await fx.expectNoWrite(() =>
        school.admin.post(`/exam_questions/${main.choice}/exam_question_answers`, { exam_question_answer: { exam_answer_id: elsewhere } }),
      );
      expectFieldError(res, 422, 'exam_answer_id', 'invalid');
    });
  });

  it.each([
    ['no resource key', { exam_answer_id: 1 }, 'exam_question_answer'],
    ['exam_answer_id is a hash', { exam_question_answer: { exam_answer_id: { id: 1 } } }, 'exam_answer_id'],
    ['text is a list', { exam_question_answer: { exam_answer_id: 1, text: ['a', 'b'] } }, 'text'],
  ])('given %s, then 400 and nothing written', async (_label, body, field) => {
    const res = await fx.expectNoWrite(() => school.admin.post(`/exam_questions/${main.choice}/exam_question_answers`, body));
    expectFieldError(res, 400, field);
  });

  it("given another school's question, an unknown one or no credential, then 404, 404, 401 and nothing written", async () => {
    const body = { exam_question_answer: { exam_answer_id: alice.attempt } };
    expectErrorBody(await fx.expectNoWrite(() => school.admin.post(`/exam_questions/${foreign.choice}/exam_question_answers`, body)), 404);
    expectErrorBody(await fx.expectNoWrite(() => school.admin.post('/exam_questions/99999999/exam_question_answers', body)), 404);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.post(`/exam_questions/${main.choice}/exam_question_answers`, body)), 401);
  });
});

describe('GET /exam_questions/:exam_question_id/exam_question_answers', () => {
  it("given answers of two students, then staff see all of the question's in id order and a student only its own", async () => {
    const fresh = await setup(school);
    const a1 = await attempt(school, fresh.activityId, alice.id);
    const b1 = await attempt(school, fresh.activityId, bob.id);
    const first = await answer(fresh.essay, { exam_answer_id: a1, text: 'alice' });
    const second = await answer(fresh.essay, { exam_answer_id: b1, text: 'bob' });
    await answer(fresh.choice, { exam_answer_id: a1 }); // another question's

    const res = await school.admin.get(`/exam_questions/${fresh.essay}/exam_question_answers`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([first, second]);
    expect(res.headers['x-total-count']).toBe('2');

    const paged = await school.admin.get(`/exam_questions/${fresh.essay}/exam_question_answers?page=2&per_page=1`);
    expect(paged.body.map((x: any) => x.id)).toEqual([second.id]);
    expect(paged.headers).toMatchObject({ 'x-total-count': '2', 'x-page': '2', 'x-per-page': '1' });

    const mine = await alice.client.get(`/exam_questions/${fresh.essay}/exam_question_answers`);
    expect(mine.body).toEqual([first]);
  });

  it("given another school's question, an unknown one or no credential, then 404, 404, 401", async () => {
    expectErrorBody(await school.admin.get(`/exam_questions/${foreign.choice}/exam_question_answers`), 404);
    expectErrorBody(await school.admin.get('/exam_questions/abc/exam_question_answers'), 404);
    expectErrorBody(await service.anonymous.get(`/exam_questions/${main.choice}/exam_question_answers`), 401);
  });
});

describe('GET /v1/exam_question_answers/:id', () => {
  it('given an answer, then 200 with it at the /v1 path and the bare path', async () => {
    const created = await answer(main.essay, { exam_answer_id: alice.attempt, text: 'shown' });
    for (const path of [`/v1/exam_question_answers/${created.id}`, `/exam_question_answers/${created.id}`, `/v1/exam_question_answers/${created.id}.json`]) {
      const res = await school.admin.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual(created);
    }
    expect((await alice.client.get(`/v1/exam_question_answers/${created.id}`)).body).toEqual(created);
  });

  it("given another school's answer, another student's, an unknown id or no credential, then 404, 404, 404, 401", async () => {
    const elsewhere = await attempt(other, foreign.activityId, (await fx.student(other)).id);
    const theirs = await answer(foreign.essay, { exam_answer_id: elsewhere }, other.admin);
    expectErrorBody(await school.admin.get(`/v1/exam_question_answers/${theirs.id}`), 404);
    const bobs = await answer(main.essay, { exam_answer_id: bob.attempt });
    expectErrorBody(await alice.client.get(`/v1/exam_question_answers/${bobs.id}`), 404);
    expectErrorBody(await school.admin.get('/v1/exam_question_answers/99999999'), 404);
    expectErrorBody(await service.anonymous.get(`/v1/exam_question_answers/${bobs.id}`), 401);
  });
});

describe('PUT and PATCH /v1/exam_question_answers/:id', () => {
  it('given another option, then 200 with the shown answer, a Location naming the show path, and correct recomputed', async () => {
    const created = await answer(main.choice, { exam_answer_id: alice.attempt, exam_question_option_id: main.wrong });
    const res = await school.admin.put(`/v1/exam_question_answers/${created.id}`, { exam_question_answer: { exam_question_option_id: main.right } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/v1/exam_question_answers/${created.id}`);
    expect(res.body).toMatchObject({ id: created.id, exam_question_option_id: main.right, correct: true, exam_answer_id: alice.attempt });
    expect((await answerRow(created.id)).correct).toBe(true);

    const cleared = await school.admin.patch(`/exam_question_answers/${created.id}`, { exam_question_answer: { exam_question_option_id: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ exam_question_option_id: null, correct: null });
  });

  it('given another attempt at the same activity (form encoding), then the answer moves to it', async () => {
    const created = await answer(main.essay, { exam_answer_id: alice.attempt, text: 'draft' });
    const raw = `exam_question_answer[exam_answer_id]=${bob.attempt}&exam_question_answer[text]=final`;
    const res = await school.admin.patch(`/v1/exam_question_answers/${created.id}`, undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ exam_answer_id: bob.attempt, text: 'final' });
    expect(await answerRow(created.id)).toMatchObject({ examAnswerId: bob.attempt, text: 'final' });
  });

  it('given a student updating its own answer, then 200; its text changes', async () => {
    const created = await answer(main.essay, { exam_answer_id: alice.attempt, text: 'v1' }, alice.client);
    const res = await alice.client.patch(`/v1/exam_question_answers/${created.id}`, { exam_question_answer: { text: 'v2' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.text).toBe('v2');
  });

  it('given a cleared exam_answer_id or a foreign option, then 422 and the answer is untouched', async () => {
    const created = await answer(main.choice, { exam_answer_id: alice.attempt, exam_question_option_id: main.right });
    expectFieldError(
      await fx.expectNoWrite(() => school.admin.patch(`/v1/exam_question_answers/${created.id}`, { exam_question_answer: { exam_answer_id: null } })),
      422,
      'exam_answer_id',
      'blank',
    );
    expectFieldError(
      await fx.expectNoWrite(() =>
        school.admin.patch(`/v1/exam_question_answers/${created.id}`, { exam_question_answer: { exam_question_option_id: foreign.right } }),
      ),
      422,
      'exam_question_option_id',
      'not_found',
    );
    expectErrorBody(await fx.expectNoWrite(() => school.admin.patch(`/v1/exam_question_answers/${created.id}`, { text: 'no key' })), 400);
  });

  it("given another school's answer, another student's, or no credential, then 404, 404, 401 and it is untouched", async () => {
    const elsewhere = await attempt(other, foreign.activityId, (await fx.student(other)).id);
    const theirs = await answer(foreign.essay, { exam_answer_id: elsewhere }, other.admin);
    const body = { exam_question_answer: { text: 'hijack' } };
    expectErrorBody(await fx.expectNoWrite(() => school.admin.put(`/v1/exam_question_answers/${theirs.id}`, body)), 404);
    const bobs = await answer(main.essay, { exam_answer_id: bob.attempt });
    expectErrorBody(await fx.expectNoWrite(() => alice.client.put(`/v1/exam_question_answers/${bobs.id}`, body)), 404);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.put(`/v1/exam_question_answers/${bobs.id}`, body)), 401);
  });
});

describe('DELETE /v1/exam_question_answers/:id', () => {
  it('given an answer, then 204, it is gone and it is 404 after', async () => {
    const created = await answer(main.essay, { exam_answer_id: alice.attempt });
    const res = await school.admin.delete(`/v1/exam_question_answers/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await answerRow(created.id)).toBeUndefined();
    expectErrorBody(await school.admin.delete(`/v1/exam_question_answers/${created.id}`), 404);
    expectErrorBody(await school.admin.get(`/v1/exam_question_answers/${created.id}`), 404);
  });

  it("given a student, then its own answer is deleted and another student's is 404", async () => {
    const own = await answer(main.essay, { exam_answer_id: alice.attempt });
    const bobs = await answer(main.essay, { exam_answer_id: bob.attempt });
    expectErrorBody(await fx.expectNoWrite(() => alice.client.delete(`/v1/exam_question_answers/${bobs.id}`)), 404);
    expect((await alice.client.delete(`/exam_question_answers/${own.id}`)).status).toBe(204);
    expect(await answerRow(own.id)).toBeUndefined();
  });

  it("given another school's answer or no credential, then 404, 401 and it stays", async () => {
    const elsewhere = await attempt(other, foreign.activityId, (await fx.student(other)).id);
    const theirs = await answer(foreign.essay, { exam_answer_id: elsewhere }, other.admin);
    expectErrorBody(await fx.expectNoWrite(() => school.admin.delete(`/v1/exam_question_answers/${theirs.id}`)), 404);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.delete(`/v1/exam_question_answers/${theirs.id}`)), 401);
    expect(await answerRow(theirs.id)).toBeDefined();
  });
});
