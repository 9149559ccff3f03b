import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { examAnswers, examQuestionAnswers } from '../src/modules/activities/activity.table.js';
import { Fixtures } from './support/activities.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of ExamAnswer (a student's attempt: examAnswer, examAnswers, createExamAnswer,
// updateExamAnswer, deleteExamAnswer, ExamAnswer.activity / questionAnswers) and of
// ExamQuestionAnswer (examQuestionAnswer, examQuestionAnswers, create/update/delete, its fields).
// The service clock stands at 2026-01-15T12:00:00Z.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;
let activityId: number;
let limitedId: number;
let unreleasedId: number;
let questionIds: string[];
let optionIds: string[];
let product: { id: number };

twoSchools('Attempts School', 'Other School', async (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);
  const { course, module, lesson } = await fx.courseWithLesson(school);
  const later = await fx.lesson(school, { courseModuleId: module.id, releaseAt: new Date('2027-01-01T00:00:00Z') });
  product = await fx.product(school, course);
  const tree = [
    { title: 'Pick', options_attributes: [{ title: 'Right', correct: true }, { title: 'Wrong' }] },
    { title: 'Write', type: 'essay' },
  ];
  activityId = (await fx.activity(school, lesson.id, {}, tree)).id;
  limitedId = (await fx.activity(school, lesson.id, { max_attempts: 1 })).id;
  unreleasedId = (await fx.activity(school, later.id)).id;
  const data = await dataOf(school.admin, graphql('query ($id: ID!) { activity(id: $id) { questions { id options { id } } } }'), { id: activityId });
  questionIds = data.activity.questions.map((q) => q.id);
  optionIds = data.activity.questions[0].options.map((o) => o.id);
});


const ATTEMPT = 'id activityId studentId enrollmentId grade submittedAt activity { id } questionAnswers { id text correct }';
const CREATE = `mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { ${ATTEMPT} } errors { field code message } } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateExamAnswerInput!) { updateExamAnswer(id: $id, input: $input) { examAnswer { ${ATTEMPT} } errors { field code message } } }`;
const ANSWER = graphql(`mutation ($q: ID!, $input: ExamQuestionAnswerInput!) {
  createExamQuestionAnswer(examQuestionId: $q, input: $input) {
    examQuestionAnswer { id examQuestionId examAnswerId examQuestionOptionId text correct examQuestion { id } examAnswer { id } option { id title } }
    errors { field code }
  }
}`);

describe('createExamAnswer', () => {
  it('given every field from staff, then the attempt with its student, enrollment, grade and activity', async () => {
    const student = await fx.student(school);
    const enrollment = await fx.enrollment(school, product, { studentId: student.id });
    const data = await dataOf(school.admin, CREATE, {
      input: { activityId, studentId: student.id, enrollmentId: enrollment.id, grade: 8, submittedAt: '2026-01-15T10:00:00Z' },
    });
    expect(data.createExamAnswer.errors).toEqual([]);
    expect(data.createExamAnswer.examAnswer).toMatchObject({
      activityId: String(activityId),
      studentId: String(student.id),
      enrollmentId: String(enrollment.id),
      grade: 8,
      submittedAt: '2026-01-15T10:00:00.000Z',
      activity: { id: String(activityId) },
      questionAnswers: [],
    });
    const [row] = await service.db.select().from(examAnswers).where(eq(examAnswers.id, Number(data.createExamAnswer.examAnswer.id)));
    expect(row).toMatchObject({ schoolId: school.id, userId: student.id, enrollmentId: enrollment.id, grade: 8 });
  });

  it.each([
    ['no activity and no student', () => ({}), [['activityId', 'blank'], ['studentId', 'blank']]],
    ['an unknown activity', () => ({ activityId: 99999999, studentId: 'STUDENT' }), [['activityId', 'not_found']]],
    ['a collaborator as the student', () => ({ activityId, studentId: 'COLLABORATOR' }), [['studentId', 'not_found']]],
    ['a negative grade', () => ({ activityId, studentId: 'STUDENT', grade: -1 }), [['grade', 'greater_than_or_equal_to']]],
    ["another student's enrollment", () => ({ activityId, studentId: 'STUDENT', enrollmentId: 'OTHER_ENROLLMENT' }), [['enrollmentId', 'invalid']]],
  ])('given %s, then errors and nothing written', async (_label, build, expected) => {
    const student = await fx.student(school);
    const [collaborator] = await service.db
      .insert((await import('../src/modules/users/user.table.js')).users)
      .values({ schoolId: school.id, type: 'Collaborator', fullName: 'Teacher', email: `teacher${student.id}@example.com` })
      .returning();
    const otherEnrollment = await fx.enrollment(school, product);
    const replace = (v: unknown) => (v === 'STUDENT' ? student.id : v === 'COLLABORATOR' ? collaborator.id : v === 'OTHER_ENROLLMENT' ? otherEnrollment.id : v);
    const input = Object.fromEntries(Object.entries(build()).map(([k, v]) => [k, replace(v)]));
    const before = await fx.counts();
    const data = await dataOf(school.admin, CREATE, { input });
    expect(data.createExamAnswer.examAnswer).toBeNull();
    expect(data.createExamAnswer.errors.map((e: any) => [e.field.join('.'), e.code])).toEqual(expected);
    expect(await fx.counts()).toEqual(before);
  });

  it("given another school's activity or student, then not_found", async () => {
    const foreignActivity = await fx.activity(other, (await fx.lesson(other)).id);
    const foreignStudent = await fx.student(other);
    const data = await dataOf(school.admin, CREATE, { input: { activityId: foreignActivity.id, studentId: foreignStudent.id } });
    expect(data.createExamAnswer.errors.map((e: any) => [e.field[0], e.code])).toEqual([
      ['activityId', 'not_found'],
      ['studentId', 'not_found'],
    ]);
  });

  it('given an activity with max_attempts 1, then the second attempt of a student is refused', async () => {
    const student = await fx.student(school);
    expect((await dataOf(school.admin, CREATE, { input: { activityId: limitedId, studentId: student.id } })).createExamAnswer.errors).toEqual([]);
    const again = await dataOf(school.admin, CREATE, { input: { activityId: limitedId, studentId: student.id } });
    expect(again.createExamAnswer.errors).toEqual([{ field: [], code: 'too_many_attempts', message: expect.stringMatching(/1 attempts/) }]);
    // Another student still may.
    expect((await dataOf(school.admin, CREATE, { input: { activityId: limitedId, studentId: (await fx.student(school)).id } })).createExamAnswer.errors).toEqual([]);
  });

  describe('a student credential', () => {
    it('given its active enrollment and a released activity, then it makes its own attempt (studentId defaults to it)', async () => {
      const me = await fx.studentClient(school);
      const enrollment = await fx.enrollment(school, product, { studentId: me.id });
      const data = await dataOf(me.client, CREATE, { input: { activityId, enrollmentId: enrollment.id, submittedAt: '2026-01-15T11:00:00Z' } });
      expect(data.createExamAnswer.errors).toEqual([]);
      expect(data.createExamAnswer.examAnswer).toMatchObject({ studentId: String(me.id), enrollmentId: String(enrollment.id) });
    });

    it.each([
      ['no enrollment', 'none', {}, [['enrollmentId', 'blank']]],
      ['an unreleased activity', 'own', { activityId: 'UNRELEASED' }, [['activityId', 'not_found']]],
      ['an inactive enrollment', 'pending', {}, [['enrollmentId', 'invalid']]],
      ["another student's enrollment", 'theirs', {}, [['enrollmentId', 'invalid']]],
      ['another studentId', 'own', { studentId: 'SOMEONE' }, [['studentId', 'forbidden']]],
      ['a grade', 'own', { grade: 10 }, [['grade', 'forbidden']]],
    ])('given %s, then errors and nothing written', async (_label, which, extra, expected) => {
      const me = await fx.studentClient(school);
      const own = await fx.enrollment(school, product, { studentId: me.id });
      const pending = await fx.enrollment(school, product, { studentId: me.id, status: 'pending' });
      const theirs = await fx.enrollment(school, product);
      const someone = await fx.student(school);
      const enrollmentId = { none: undefined, own: own.id, pending: pending.id, theirs: theirs.id }[which];
      const input: Record<string, unknown> = { activityId, enrollmentId, ...extra };
      if (input.activityId === 'UNRELEASED') input.activityId = unreleasedId;
      if (input.studentId === 'SOMEONE') input.studentId = someone.id;
      const before = await fx.counts();
      const data = await dataOf(me.client, CREATE, { input });
      expect(data.createExamAnswer.errors.map((e: any) => [e.field.join('.'), e.code])).toEqual(expected);
      expect(await fx.counts()).toEqual(before);
    });
  });
});

describe('updateExamAnswer, deleteExamAnswer, examAnswer, examAnswers', () => {
  it('given staff, then the grade and submittedAt change; a student hands in its own attempt but may not grade it', async () => {
    const me = await fx.studentClient(school);
    const enrollment = await fx.enrollment(school, product, { studentId: me.id });
    const id = (await dataOf(me.client, CREATE, { input: { activityId, enrollmentId: enrollment.id } })).createExamAnswer.examAnswer.id;
    const handedIn = await dataOf(me.client, UPDATE, { id, input: { submittedAt: '2026-01-15T12:00:00Z' } });
    expect(handedIn.updateExamAnswer).toMatchObject({ errors: [], examAnswer: { submittedAt: '2026-01-15T12:00:00.000Z', grade: null } });
    const cheat = await dataOf(me.client, UPDATE, { id, input: { grade: 10 } });
    expect(cheat.updateExamAnswer.errors.map((e: any) => [e.field[0], e.code])).toEqual([['grade', 'forbidden']]);
    const graded = await dataOf(school.admin, UPDATE, { id, input: { grade: 7 } });
    expect(graded.updateExamAnswer.examAnswer.grade).toBe(7);
    const bad = await dataOf(school.admin, UPDATE, { id, input: { enrollmentId: (await fx.enrollment(school, product)).id } });
    expect(bad.updateExamAnswer.errors.map((e: any) => [e.field[0], e.code])).toEqual([['enrollmentId', 'invalid']]);
  });

  it("given reads, then staff see the school's attempts and a student only its own; filters narrow them", async () => {
    const alice = await fx.studentClient(school);
    const bob = await fx.student(school);
    const a = (await dataOf(school.admin, CREATE, { input: { activityId, studentId: alice.id } })).createExamAnswer.examAnswer.id;
    const b = (await dataOf(school.admin, CREATE, { input: { activityId, studentId: bob.id } })).createExamAnswer.examAnswer.id;
    const LIST = graphql('query ($a: ID, $s: ID) { examAnswers(activityId: $a, studentId: $s, first: 100) { totalCount nodes { id studentId } } }');
    expect((await dataOf(school.admin, LIST, { s: bob.id })).examAnswers.nodes).toEqual([{ id: b, studentId: String(bob.id) }]);
    const staffIds = (await dataOf(school.admin, LIST, { a: activityId })).examAnswers.nodes.map((n) => n.id);
    expect(staffIds).toEqual(expect.arrayContaining([a, b]));
    expect((await dataOf(alice.client, LIST, { a: activityId })).examAnswers.nodes).toEqual([{ id: a, studentId: String(alice.id) }]);
    expect((await dataOf(alice.client, graphql('query ($id: ID!) { examAnswer(id: $id) { id } }'), { id: a })).examAnswer.id).toBe(a);
    expect((await alice.client.graphql('query ($id: ID!) { examAnswer(id: $id) { id } }', { id: b })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await other.admin.graphql('query ($id: ID!) { examAnswer(id: $id) { id } }', { id: a })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('given deleteExamAnswer, then staff delete the attempt with its answers; students may not', async () => {
    const student = await fx.studentClient(school);
    const id = (await dataOf(school.admin, CREATE, { input: { activityId, studentId: student.id } })).createExamAnswer.examAnswer.id;
    await dataOf(school.admin, ANSWER, { q: questionIds[1], input: { examAnswerId: id, text: 'x' } });
    const DELETE = graphql('mutation ($id: ID!) { deleteExamAnswer(id: $id) { examAnswer { id } errors { code } } }');
    expect((await student.client.graphql(DELETE, { id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await other.admin.graphql(DELETE, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await dataOf(school.admin, DELETE, { id })).deleteExamAnswer).toEqual({ examAnswer: { id }, errors: [] });
    expect(await service.db.select().from(examAnswers).where(eq(examAnswers.id, Number(id)))).toEqual([]);
    expect(await service.db.select().from(examQuestionAnswers).where(eq(examQuestionAnswers.examAnswerId, Number(id)))).toEqual([]);
  });
});

describe('ExamQuestionAnswer through GraphQL', () => {
  let attempt: string;
  beforeAll(async () => {
    attempt = (await dataOf(school.admin, CREATE, { input: { activityId, studentId: (await fx.student(school)).id } })).createExamAnswer.examAnswer.id;
  });

  it('given createExamQuestionAnswer with an option, then correct is computed and the fields resolve', async () => {
    const data = await dataOf(school.admin, ANSWER, { q: questionIds[0], input: { examAnswerId: attempt, examQuestionOptionId: optionIds[0] } });
    expect(data.createExamQuestionAnswer.errors).toEqual([]);
    expect(data.createExamQuestionAnswer.examQuestionAnswer).toMatchObject({
      examQuestionId: questionIds[0],
      examAnswerId: attempt,
      examQuestionOptionId: optionIds[0],
      correct: true,
      examQuestion: { id: questionIds[0] },
      examAnswer: { id: attempt },
      option: { id: optionIds[0], title: 'Right' },
    });
  });

  it('given an invalid reference, then errors name the field', async () => {
    const data = await dataOf(school.admin, ANSWER, { q: questionIds[1], input: { examAnswerId: attempt, examQuestionOptionId: optionIds[0] } });
    expect(data.createExamQuestionAnswer).toEqual({ examQuestionAnswer: null, errors: [{ field: ['examQuestionOptionId'], code: 'not_found' }] });
  });

  it('given update and delete, then the answer changes and goes; ExamQuestion.answers and ExamAnswer.questionAnswers list it meanwhile', async () => {
    const created = (await dataOf(school.admin, ANSWER, { q: questionIds[0], input: { examAnswerId: attempt, examQuestionOptionId: optionIds[1] } }))
      .createExamQuestionAnswer.examQuestionAnswer;
    expect(created.correct).toBe(false);
    const updated = await dataOf(
      school.admin,
      graphql('mutation ($id: ID!, $input: ExamQuestionAnswerInput!) { updateExamQuestionAnswer(id: $id, input: $input) { examQuestionAnswer { id correct } errors { code } } }'),
      { id: created.id, input: { examQuestionOptionId: optionIds[0] } },
    );
    expect(updated.updateExamQuestionAnswer).toEqual({ examQuestionAnswer: { id: created.id, correct: true }, errors: [] });
    const read = await dataOf(
      school.admin,
      graphql('query ($q: ID!, $a: ID!) { examQuestion(id: $q) { answers { id } } examAnswer(id: $a) { questionAnswers { id } } examQuestionAnswers(examQuestionId: $q, examAnswerId: $a) { totalCount } }'),
      { q: questionIds[0], a: attempt },
    );
    expect(read.examQuestion.answers.map((x) => x.id)).toContain(created.id);
    expect(read.examAnswer.questionAnswers.map((x) => x.id)).toContain(created.id);
    expect(read.examQuestionAnswers.totalCount).toBe(read.examAnswer.questionAnswers.length);
    const deleted = await dataOf(school.admin, graphql('mutation ($id: ID!) { deleteExamQuestionAnswer(id: $id) { examQuestionAnswer { id } errors { code } } }'), { id: created.id });
    expect(deleted.deleteExamQuestionAnswer).toEqual({ examQuestionAnswer: { id: created.id }, errors: [] });
    const gone = await school.admin.graphql('query ($id: ID!) { examQuestionAnswer(id: $id) { id } }', { id: created.id });
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
