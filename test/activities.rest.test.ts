import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities, examQuestions } from '../src/modules/activities/activity.table.js';
import { Fixtures } from './support/activities.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of Activity: POST /activities, GET/PUT/PATCH/DELETE /activities/:id, with the question
// tree given as the top-level `exam_questions_attributes` (the scoped lists and shows are in
// activities.scopes.test.ts).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;
let lessonId: number;

twoSchools('Activity School', 'Other School', async (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);
  lessonId = (await fx.courseWithLesson(school)).lesson.id;
});

const activityRow = async (id: number) => (await service.db.select().from(activities).where(eq(activities.id, id)))[0];

/** A question tree of every kind, as JSON arrays. */
const fullTree = () => [
  {
    title: 'Which are primes?',
    type: 'multiple_choice',
    comment: '2 is the only even prime',
    point: 3,
    options_attributes: [
      { title: '2', correct: true },
      { title: '4', correct: false },
      { title: '5', correct: true },
    ],
  },
  {
    title: 'Match the capitals',
    type: 'associative',
    point: 2,
    options_attributes: [
      { first_assertion_attributes: { text: 'France' }, second_assertion_attributes: { text: 'Paris' } },
      { first_assertion_attributes: { text: 'Peru' }, second_assertion_attributes: { text: 'Lima' } },
    ],
  },
  { title: 'Explain recursion', type: 'essay', comment: 'Use an example' },
];

const storedFullTree = (schoolId: number) => [
  {
    title: 'Which are primes?',
    type: 'multiple_choice',
    comment: '2 is the only even prime',
    point: 3,
    position: 0,
    schoolId,
    options: [
      { title: '2', correct: true, position: 0 },
      { title: '4', correct: false, position: 1 },
      { title: '5', correct: true, position: 2 },
    ],
  },
  {
    title: 'Match the capitals',
    type: 'associative',
    comment: null,
    point: 2,
    position: 1,
    schoolId,
    options: [
      { title: null, correct: false, position: 0, first: 'France', second: 'Paris' },
      { title: null, correct: false, position: 1, first: 'Peru', second: 'Lima' },
    ],
  },
  { title: 'Explain recursion', type: 'essay', comment: 'Use an example', point: null, position: 2, schoolId, options: [] },
];

describe('POST /activities', () => {
  it('given every field and a question tree as JSON arrays, then 201 with the activity, a Location, and the whole tree stored', async () => {
    const res = await school.admin.post('/activities', {
      activity: { title: 'Final exam', type: 'exam', show_comments: 'approved', exam_lesson_id: lessonId, time_limit: 60, retry_time: 0, max_attempts: 3 },
      exam_questions_attributes: fullTree(),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/activities/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      title: 'Final exam',
      type: 'exam',
      show_comments: 'approved',
      exam_lesson_id: lessonId,
      time_limit: 60,
      retry_time: 0,
      max_attempts: 3,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // The reply carries the tree it stored (test/activities/rest.questions.test.ts).
      questions: expect.any(Array),
    });
    expect(res.body.questions.map((q: { title: string; options: unknown[] }) => [q.title, q.options.length])).toEqual([
      ['Which are primes?', 3],
      ['Match the capitals', 2],
      ['Explain recursion', 0],
    ]);
    expect(await activityRow(res.body.id)).toMatchObject({ schoolId: school.id, title: 'Final exam', showComments: 'approved', timeLimit: 60 });
    expect(await fx.tree(res.body.id)).toEqual(storedFullTree(school.id));
  });

  it('given the nested attributes as index-keyed hashes (Rails form style) in JSON, then they are read in index order', async () => {
    const res = await school.admin.post('/activities', {
      activity: { title: 'Hash form', type: 'quiz', show_comments: 'always', exam_lesson_id: lessonId },
      exam_questions_attributes: {
        '1': { title: 'Second', type: 'essay' },
        '0': {
          title: 'First',
          options_attributes: { '1': { title: 'B', correct: false }, '0': { title: 'A', correct: true } },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    const tree = await fx.tree(res.body.id);
    expect(tree.map((q) => [q.title, q.type, q.position])).toEqual([
      ['First', 'multiple_choice', 0],
      ['Second', 'essay', 1],
    ]);
    expect(tree[0].options).toEqual([
      { title: 'A', correct: true, position: 0 },
      { title: 'B', correct: false, position: 1 },
    ]);
  });

  it('given a form-urlencoded body with bracket names, then strings become typed values and the tree is stored', async () => {
    const raw = [
      'activity[title]=Form+exam',
      'activity[type]=survey',
      'activity[show_comments]=always',
      `activity[exam_lesson_id]=${lessonId}`,
      'activity[max_attempts]=2',
      'exam_questions_attributes[0][title]=Pick+one',
      'exam_questions_attributes[0][type]=multiple_choice',
      'exam_questions_attributes[0][point]=5',
      'exam_questions_attributes[0][options_attributes][0][title]=Yes',
      'exam_questions_attributes[0][options_attributes][0][correct]=1',
      'exam_questions_attributes[0][options_attributes][1][title]=No',
      'exam_questions_attributes[0][options_attributes][1][correct]=false',
      'exam_questions_attributes[1][title]=Pair+them',
      'exam_questions_attributes[1][type]=associative',
      'exam_questions_attributes[1][options_attributes][0][first_assertion_attributes][text]=H2O',
      'exam_questions_attributes[1][options_attributes][0][second_assertion_attributes][text]=Water',
    ].join('&');
    const res = await school.admin.post('/activities', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Form exam', type: 'survey', max_attempts: 2, exam_lesson_id: lessonId });
    expect(await fx.tree(res.body.id)).toEqual([
      {
        title: 'Pick one',
        type: 'multiple_choice',
        comment: null,
        point: 5,
        position: 0,
        schoolId: school.id,
        options: [
          { title: 'Yes', correct: true, position: 0 },
          { title: 'No', correct: false, position: 1 },
        ],
      },
      {
        title: 'Pair them',
        type: 'associative',
        comment: null,
        point: null,
        position: 1,
        schoolId: school.id,
        options: [{ title: null, correct: false, position: 0, first: 'H2O', second: 'Water' }],
      },
    ]);
  });

  it('given a multipart body with bracket names, then 201 and the tree is stored', async () => {
    const res = await school.admin.post(
      '/activities',
      {
        activity: { title: 'Multipart', type: 'assignment', show_comments: 'approved', exam_lesson_id: lessonId, time_limit: '30' },
        exam_questions_attributes: {
          '0': { title: 'Q', point: '1', options_attributes: { '0': { title: 'Only', correct: 'true' } } },
        },
      },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 'assignment', time_limit: 30 });
    expect(await fx.tree(res.body.id)).toEqual([
      { title: 'Q', type: 'multiple_choice', comment: null, point: 1, position: 0, schoolId: school.id, options: [{ title: 'Only', correct: true, position: 0 }] },
    ]);
  });

  it('given positions, then they order the questions and options', async () => {
    const created = await fx.activity(school, lessonId, {}, [
      { title: 'Shown second', position: 7, type: 'essay' },
      { title: 'Shown first', position: 2, options_attributes: [{ title: 'z', correct: true, position: 9 }, { title: 'a', position: 1 }] },
    ]);
    const tree = await fx.tree(created.id);
    expect(tree.map((q) => [q.title, q.position])).toEqual([
      ['Shown first', 2],
      ['Shown second', 7],
    ]);
    expect(tree[0].options.map((o) => o.title)).toEqual(['a', 'z']);
  });

  it('given no questions, then the activity has none; given the Rails class-name type "Exam", then it is stored as exam', async () => {
    const created = await fx.activity(school, lessonId, { type: 'Exam' });
    expect(created.type).toBe('exam');
    expect(created).toMatchObject({ time_limit: null, retry_time: null, max_attempts: null });
    expect(await fx.tree(created.id)).toEqual([]);
  });

  it('given fields that are not writable (id, school_id, timestamps), then they are ignored', async () => {
    const res = await school.admin.post('/activities', {
      activity: {
        id: 777777,
        school_id: other.id,
        created_at: '2000-01-01T00:00:00Z',
        questions: [{ title: 'copied from a reply' }],
        title: 'Strong params',
        type: 'exam',
        show_comments: 'always',
        exam_lesson_id: lessonId,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).not.toBe(777777);
    expect(res.body.school_id).toBe(school.id);
    expect(new Date(res.body.created_at).getUTCFullYear()).not.toBe(2000);
  });

  describe('invalid objects: 422 and nothing written', () => {
    const base = () => ({ title: 'T', type: 'exam', show_comments: 'always', exam_lesson_id: lessonId });

    it('given an empty activity, then the four required fields are blank', async () => {
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', { activity: {}, exam_questions_attributes: [] }));
      expectErrorBody(res, 422);
      for (const field of ['title', 'type', 'show_comments', 'exam_lesson_id']) expect(res.body.details[field]).toEqual([{ error: 'blank' }]);
    });

    it.each([
      ['a type not in the list', { type: 'lecture' }, 'type', 'inclusion'],
      ['a blank title', { title: '  ' }, 'title', 'blank'],
      ['a lesson that does not exist', { exam_lesson_id: 99999999 }, 'exam_lesson_id', 'not_found'],
      ['time_limit 0', { time_limit: 0 }, 'time_limit', 'greater_than_or_equal_to'],
      ['retry_time -1', { retry_time: -1 }, 'retry_time', 'greater_than_or_equal_to'],
      ['max_attempts 0', { max_attempts: 0 }, 'max_attempts', 'greater_than_or_equal_to'],
    ])('given %s, then 422 on that field', async (_label, fields, field, code) => {
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', { activity: { ...base(), ...fields } }));
      expectFieldError(res, 422, field, code);
    });

    it("given another school's lesson, then 422 not_found on exam_lesson_id", async () => {
      const foreign = await fx.lesson(other);
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', { activity: { ...base(), exam_lesson_id: foreign.id } }));
      expectFieldError(res, 422, 'exam_lesson_id', 'not_found');
    });

    it('given an invalid option deep in the tree, then 422 names its nested path and no row of the tree is written', async () => {
      const tree = fullTree();
      tree.push({ title: 'Fourth', type: 'multiple_choice', options_attributes: [{ title: '', correct: true }] } as any);
      const swapped = [tree[0], tree[3], tree[1], tree[2]];
      const before = await fx.counts();
      const res = await school.admin.post('/activities', { activity: base(), exam_questions_attributes: swapped });
      expectErrorBody(res, 422);
      expect(res.body).toEqual({
        errors: { 'exam_questions_attributes[1].options_attributes[0].title': ["can't be blank"] },
        details: { 'exam_questions_attributes[1].options_attributes[0].title': [{ error: 'blank' }] },
      });
      expect(await fx.counts()).toEqual(before);
    });

    it.each([
      [
        'a multiple-choice question with no correct option',
        [{ title: 'Q', options_attributes: [{ title: 'a' }, { title: 'b', correct: false }] }],
        'exam_questions_attributes[0].options_attributes',
        'invalid',
      ],
      ['a multiple-choice question with no options', [{ title: 'Q', type: 'multiple_choice' }], 'exam_questions_attributes[0].options_attributes', 'blank'],
      ['an associative question with no options', [{ title: 'Q', type: 'associative', options_attributes: [] }], 'exam_questions_attributes[0].options_attributes', 'blank'],
      [
        'an associative option without its second assertion',
        [{ title: 'Q', type: 'associative', options_attributes: [{ first_assertion_attributes: { text: 'a' }, second_assertion_attributes: { text: 'b' } }, { first_assertion_attributes: { text: 'c' } }] }],
        'exam_questions_attributes[0].options_attributes[1].second_assertion_attributes',
        'blank',
      ],
      [
        'an associative option with a blank first assertion',
        [{ title: 'Q', type: 'associative', options_attributes: [{ first_assertion_attributes: { text: ' ' }, second_assertion_attributes: { text: 'b' } }] }],
        'exam_questions_attributes[0].options_attributes[0].first_assertion_attributes.text',
        'blank',
      ],
      [
        'assertions on a multiple-choice option',
        [{ title: 'Q', options_attributes: [{ title: 'a', correct: true, first_assertion_attributes: { text: 'x' } }] }],
        'exam_questions_attributes[0].options_attributes[0].first_assertion_attributes',
        'present',
      ],
      ['an essay question with options', [{ title: 'Q', type: 'essay', options_attributes: [{ title: 'a' }] }], 'exam_questions_attributes[0].options_attributes', 'present'],
      ['a question without a title', [{ type: 'essay' }], 'exam_questions_attributes[0].title', 'blank'],
      ['a negative point', [{ title: 'Q', type: 'essay', point: -1 }], 'exam_questions_attributes[0].point', 'greater_than_or_equal_to'],
    ])('given %s, then 422 at its path', async (_label, questions, field, code) => {
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', { activity: base(), exam_questions_attributes: questions }));
      expectFieldError(res, 422, field, code);
    });
  });

  describe('malformed requests: 400 and nothing written', () => {
    const base = () => ({ title: 'T', type: 'exam', show_comments: 'always', exam_lesson_id: lessonId });
    it.each([
      ['no activity key', { title: 'x' }, 'activity'],
      ['activity is a string', { activity: 'exam' }, 'activity'],
      ['time_limit is not a number', { activity: { ...base(), time_limit: 'an hour' } }, 'time_limit'],
      [
        'an option correct is not a boolean',
        { activity: base(), exam_questions_attributes: [{ title: 'Q', options_attributes: [{ title: 'a', correct: 'maybe' }] }] },
        'exam_questions_attributes[0].options_attributes[0].correct',
      ],
    ])('given %s, then 400', async (_label, body, field) => {
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', body));
      expectFieldError(res, 400, field);
    });

    it.each([
      ['show_comments is an unknown value', { activity: { ...base(), show_comments: 'never' } }, 'show_comments'],
      ['a question type is unknown', { activity: base(), exam_questions_attributes: [{ title: 'Q', type: 'true_false' }] }, 'exam_questions_attributes[0].type'],
    ])('given %s, then 422 inclusion (a closed list)', async (_label, body, field) => {
      const res = await fx.expectNoWrite(() => school.admin.post('/activities', body));
      expectFieldError(res, 422, field, 'inclusion');
    });

    it('given a body that is not JSON, then 400', async () => {
      const res = await fx.expectNoWrite(() =>
        school.admin.post('/activities', undefined, { raw: '{"activity": {', headers: { 'content-type': 'application/json' } }),
      );
      expectErrorBody(res, 400);
    });
  });

  it('given no credential, a wrong token or a student, then 401, 401, 403 and nothing written', async () => {
    const body = { activity: { title: 'T', type: 'exam', show_comments: 'always', exam_lesson_id: lessonId } };
    const student = await fx.studentClient(school);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.post('/activities', body)), 401);
    expectErrorBody(await fx.expectNoWrite(() => service.client('wrong').post('/activities', body)), 401);
    expectErrorBody(await fx.expectNoWrite(() => student.client.post('/activities', body)), 403);
  });

  it('given a platform credential, then without X-School-Id 400; with it, 201 in that school', async () => {
    const body = { activity: { title: 'By platform', type: 'exam', show_comments: 'always', exam_lesson_id: lessonId } };
    expectErrorBody(await fx.expectNoWrite(() => service.platform.post('/activities', body)), 400);
    const res = await service.platform.forSchool(school.id).post('/activities', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBe(school.id);
  });
});

describe('GET /activities/:id', () => {
  it('given an activity, then 200 with its fields, also with .json, /v1 and /api', async () => {
    const created = await fx.activity(school, lessonId, { time_limit: 15 });
    for (const path of [`/activities/${created.id}`, `/activities/${created.id}.json`, `/v1/activities/${created.id}`, `/api/activities/${created.id}/`]) {
      const res = await school.admin.get(path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body).toEqual(created);
    }
  });

  it('given a student credential, then 403: students read activities through their enrollments', async () => {
    const created = await fx.activity(school, lessonId);
    const student = await fx.studentClient(school);
    expectErrorBody(await student.client.get(`/activities/${created.id}`), 403);
  });

  it("given another school's activity or an unknown id, then 404", async () => {
    const foreign = await fx.activity(other, (await fx.lesson(other)).id);
    for (const id of [foreign.id, 99999999, 'abc']) {
      const res = await school.admin.get(`/activities/${id}`);
      expectErrorBody(res, 404);
      expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    }
  });

  it('given no credential, then 401', async () => {
    const created = await fx.activity(school, lessonId);
    expectErrorBody(await service.anonymous.get(`/activities/${created.id}`), 401);
  });
});

describe('PUT and PATCH /activities/:id', () => {
  it('given some fields, then only they change, the questions stay, and 200 with a Location', async () => {
    const created = await fx.activity(school, lessonId, { time_limit: 10 }, fullTree());
    const res = await school.admin.patch(`/activities/${created.id}`, { activity: { title: 'Renamed', max_attempts: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/activities/${created.id}`);
    expect(res.body).toMatchObject({ id: created.id, title: 'Renamed', max_attempts: 2, time_limit: 10, type: 'exam' });
    expect(await fx.tree(created.id)).toEqual(storedFullTree(school.id));
  });

  it('given exam_questions_attributes, then PUT replaces the questions', async () => {
    const created = await fx.activity(school, lessonId, {}, fullTree());
    const oldIds = (await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, created.id))).map((q) => q.id);
    const res = await school.admin.put(`/activities/${created.id}`, {
      activity: { title: 'Replaced' },
      exam_questions_attributes: [{ title: 'Only question', type: 'essay' }],
    });
    expect(res.status, res.text).toBe(200);
    expect((await fx.tree(created.id)).map((q) => q.title)).toEqual(['Only question']);
    const now = await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, created.id));
    expect(now.some((q) => oldIds.includes(q.id))).toBe(false);
  });

  it('given exam_questions_attributes in a form body without an activity field, then the questions are replaced', async () => {
    const created = await fx.activity(school, lessonId, {}, fullTree());
    const raw = 'activity[title]=Form+update&exam_questions_attributes[0][title]=New&exam_questions_attributes[0][options_attributes][0][title]=ok&exam_questions_attributes[0][options_attributes][0][correct]=true';
    const res = await school.admin.patch(`/activities/${created.id}`, undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.title).toBe('Form update');
    expect(await fx.tree(created.id)).toEqual([
      { title: 'New', type: 'multiple_choice', comment: null, point: null, position: 0, schoolId: school.id, options: [{ title: 'ok', correct: true, position: 0 }] },
    ]);
  });

  it('given an empty exam_questions_attributes list, then every question is removed', async () => {
    const created = await fx.activity(school, lessonId, {}, fullTree());
    const res = await school.admin.patch(`/activities/${created.id}`, { activity: {}, exam_questions_attributes: [] });
    expect(res.status, res.text).toBe(200);
    expect(await fx.tree(created.id)).toEqual([]);
  });

  it('given an invalid tree or a cleared required field, then 422 and the activity and its tree are untouched', async () => {
    const created = await fx.activity(school, lessonId, {}, fullTree());
    const bad = await fx.expectNoWrite(() =>
      school.admin.put(`/activities/${created.id}`, { activity: { title: 'x' }, exam_questions_attributes: [{ title: 'Q', options_attributes: [{ title: 'a' }] }] }),
    );
    expectFieldError(bad, 422, 'exam_questions_attributes[0].options_attributes', 'invalid');
    for (const field of ['title', 'type', 'show_comments', 'exam_lesson_id']) {
      const res = await fx.expectNoWrite(() => school.admin.patch(`/activities/${created.id}`, { activity: { [field]: null } }));
      expectFieldError(res, 422, field, 'blank');
    }
    expect(await fx.tree(created.id)).toEqual(storedFullTree(school.id));
  });

  it('given questions that students have answered, then replacing them is refused (409 in_use) and nothing changes', async () => {
    const created = await fx.activity(school, lessonId, {}, [{ title: 'Q', type: 'essay' }]);
    const student = await fx.student(school);
    const attempt = await school.admin.graphql(
      'mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { id } errors { code } } }',
      { input: { activityId: created.id, studentId: student.id } },
    );
    const [question] = await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, created.id));
    const answer = await school.admin.post(`/exam_questions/${question.id}/exam_question_answers`, {
      exam_question_answer: { exam_answer_id: attempt.data.createExamAnswer.examAnswer.id, text: 'my essay' },
    });
    expect(answer.status, answer.text).toBe(201);
    const res = await fx.expectNoWrite(() =>
      school.admin.put(`/activities/${created.id}`, { activity: { title: 'New' }, exam_questions_attributes: [{ title: 'Other', type: 'essay' }] }),
    );
    expectFieldError(res, 409, 'exam_questions_attributes', 'in_use');
    // Without exam_questions_attributes the activity itself still changes.
    expect((await school.admin.patch(`/activities/${created.id}`, { activity: { title: 'New' } })).status).toBe(200);
  });

  it("given another school's activity, then 404 and it is untouched; no credential 401; a student 403", async () => {
    const foreign = await fx.activity(other, (await fx.lesson(other)).id);
    const body = { activity: { title: 'Hijack' } };
    expectErrorBody(await fx.expectNoWrite(() => school.admin.patch(`/activities/${foreign.id}`, body)), 404);
    expectErrorBody(await fx.expectNoWrite(() => school.admin.put('/activities/99999999', body)), 404);
    const own = await fx.activity(school, lessonId);
    const student = await fx.studentClient(school);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.patch(`/activities/${own.id}`, body)), 401);
    expectErrorBody(await fx.expectNoWrite(() => student.client.patch(`/activities/${own.id}`, body)), 403);
    expectErrorBody(await fx.expectNoWrite(() => school.admin.patch(`/activities/${own.id}`, { title: 'no key' })), 400);
  });
});

describe('DELETE /activities/:id', () => {
  it('given an activity with questions, then 204, it and its tree are gone, and it is 404 after', async () => {
    const created = await fx.activity(school, lessonId, {}, fullTree());
    const res = await school.admin.delete(`/activities/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await activityRow(created.id)).toBeUndefined();
    expect(await fx.tree(created.id)).toEqual([]);
    expectErrorBody(await school.admin.get(`/activities/${created.id}`), 404);
    expectErrorBody(await school.admin.delete(`/activities/${created.id}`), 404);
  });

  it("given another school's activity, no credential or a student, then 404, 401, 403 and it stays", async () => {
    const foreign = await fx.activity(other, (await fx.lesson(other)).id);
    expectErrorBody(await fx.expectNoWrite(() => school.admin.delete(`/activities/${foreign.id}`)), 404);
    const own = await fx.activity(school, lessonId);
    const student = await fx.studentClient(school);
    expectErrorBody(await fx.expectNoWrite(() => service.anonymous.delete(`/activities/${own.id}`)), 401);
    expectErrorBody(await fx.expectNoWrite(() => student.client.delete(`/activities/${own.id}`)), 403);
    expect(await activityRow(own.id)).toBeDefined();
  });
});
