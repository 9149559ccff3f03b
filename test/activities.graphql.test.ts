import { beforeAll, describe, expect, it } from 'vitest';
import { Fixtures } from './support/activities.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of Activity: activity / activities / examQuestion, createActivity / updateActivity /
// deleteActivity, and the fields Activity.questions, Activity.lesson, ExamQuestion.options,
// ExamQuestion.answers, ExamQuestionOption.firstAssertion / secondAssertion / correct and
// Lesson.activities, which go through per-request loaders (see the statement-count test).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;

twoSchools('GraphQL School', 'Other School', (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);
});


const TREE = `id title type showComments examLessonId timeLimit retryTime maxAttempts
  lesson { id title }
  questions { id activityId position title type comment point options { position title correct firstAssertion { side text } secondAssertion { side text } } }`;

const CREATE = `mutation ($input: ActivityInput!) { createActivity(input: $input) { activity { ${TREE} } errors { field code message } } }`;
const UPDATE = `mutation ($id: ID!, $input: ActivityInput!) { updateActivity(id: $id, input: $input) { activity { ${TREE} } errors { field code message } } }`;

const questionsInput = () => [
  { title: 'Pick', point: 2, optionsAttributes: [{ title: 'Yes', correct: true }, { title: 'No' }] },
  {
    title: 'Match',
    type: 'associative',
    optionsAttributes: [{ firstAssertionAttributes: { text: 'Sun' }, secondAssertionAttributes: { text: 'Star' } }],
  },
  { title: 'Essay', type: 'essay', comment: 'Be brief' },
];

describe('createActivity, updateActivity, deleteActivity', () => {
  it('given examQuestionsAttributes, then the activity comes back with its ordered tree and its lesson', async () => {
    const { lesson } = await fx.courseWithLesson(school);
    const data = await dataOf(school.admin, CREATE, {
      input: { title: 'Quiz', type: 'quiz', showComments: 'always', examLessonId: lesson.id, maxAttempts: 2, examQuestionsAttributes: questionsInput() },
    });
    expect(data.createActivity.errors).toEqual([]);
    const activity = data.createActivity.activity;
    expect(activity).toMatchObject({ title: 'Quiz', type: 'quiz', showComments: 'always', examLessonId: String(lesson.id), maxAttempts: 2, timeLimit: null });
    expect(activity.lesson).toEqual({ id: String(lesson.id), title: lesson.title });
    expect(activity.questions.map((q: any) => [q.position, q.title, q.type, q.activityId])).toEqual([
      [0, 'Pick', 'multiple_choice', activity.id],
      [1, 'Match', 'associative', activity.id],
      [2, 'Essay', 'essay', activity.id],
    ]);
    expect(activity.questions[0].options).toEqual([
      { position: 0, title: 'Yes', correct: true, firstAssertion: null, secondAssertion: null },
      { position: 1, title: 'No', correct: false, firstAssertion: null, secondAssertion: null },
    ]);
    expect(activity.questions[1].options).toEqual([
      { position: 0, title: null, correct: false, firstAssertion: { side: 'first', text: 'Sun' }, secondAssertion: { side: 'second', text: 'Star' } },
    ]);
    expect(activity.questions[2]).toMatchObject({ comment: 'Be brief', options: [] });
  });

  it('given an invalid option deep in the tree, then errors name the nested path, activity is null and nothing is written', async () => {
    const { lesson } = await fx.courseWithLesson(school);
    const questions = questionsInput();
    questions[1].optionsAttributes![0] = { firstAssertionAttributes: { text: 'Sun' } } as any;
    const before = await fx.counts();
    const data = await dataOf(school.admin, CREATE, {
      input: { title: 'Bad', type: 'exam', showComments: 'always', examLessonId: lesson.id, examQuestionsAttributes: questions },
    });
    expect(data.createActivity).toEqual({
      activity: null,
      errors: [{ field: ['examQuestionsAttributes', '1', 'optionsAttributes', '0', 'secondAssertionAttributes'], code: 'blank', message: "can't be blank" }],
    });
    expect(await fx.counts()).toEqual(before);
  });

  it('given an unknown enum value, then a bad-input error and nothing written', async () => {
    const { lesson } = await fx.courseWithLesson(school);
    const before = await fx.counts();
    const res = await school.admin.graphql(CREATE, {
      input: { title: 'X', type: 'exam', showComments: 'sometimes', examLessonId: lesson.id },
    });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await fx.counts()).toEqual(before);
  });

  it('given updateActivity with examQuestionsAttributes, then they replace the questions; without, the questions stay', async () => {
    const { lesson } = await fx.courseWithLesson(school);
    const created = (await dataOf(school.admin, CREATE, { input: { title: 'A', type: 'exam', showComments: 'always', examLessonId: lesson.id, examQuestionsAttributes: questionsInput() } }))
      .createActivity.activity;
    const renamed = (await dataOf(school.admin, UPDATE, { id: created.id, input: { title: 'B', retryTime: 5 } })).updateActivity;
    expect(renamed.errors).toEqual([]);
    expect(renamed.activity).toMatchObject({ title: 'B', retryTime: 5 });
    expect(renamed.activity.questions.map((q: any) => q.id)).toEqual(created.questions.map((q: any) => q.id));

    const replaced = (await dataOf(school.admin, UPDATE, { id: created.id, input: { examQuestionsAttributes: [{ title: 'New', type: 'essay' }] } })).updateActivity;
    expect(replaced.activity.questions.map((q: any) => q.title)).toEqual(['New']);

    const cleared = (await dataOf(school.admin, UPDATE, { id: created.id, input: { examQuestionsAttributes: null } })).updateActivity;
    expect(cleared.activity.questions).toEqual([]);
  });

  it("given another school's activity, then updateActivity and deleteActivity are NOT_FOUND and it stays", async () => {
    const foreign = await fx.activity(other, (await fx.lesson(other)).id);
    const update = await school.admin.graphql(UPDATE, { id: foreign.id, input: { title: 'Hijack' } });
    expect(update.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const del = await school.admin.graphql('mutation ($id: ID!) { deleteActivity(id: $id) { activity { id } errors { code } } }', { id: foreign.id });
    expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await dataOf(other.admin, graphql('query ($id: ID!) { activity(id: $id) { title } }'), { id: foreign.id })).activity.title).toBe(foreign.title);
  });

  it('given deleteActivity, then the payload holds the deleted activity and it is NOT_FOUND after', async () => {
    const created = await fx.activity(school, (await fx.lesson(school)).id);
    const data = await dataOf(school.admin, graphql('mutation ($id: ID!) { deleteActivity(id: $id) { activity { id title } errors { code } } }'), { id: created.id });
    expect(data.deleteActivity).toEqual({ activity: { id: String(created.id), title: created.title }, errors: [] });
    const after = await school.admin.graphql('query ($id: ID!) { activity(id: $id) { id } }', { id: created.id });
    expect(after.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('given a student credential, then the mutations are FORBIDDEN', async () => {
    const student = await fx.studentClient(school);
    const res = await student.client.graphql(CREATE, { input: { title: 'X' } });
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('activity and activities queries', () => {
  let course: { id: number };
  let lessonA: { id: number };
  let lessonB: { id: number };
  let product: { id: number };
  let enrollment: { id: number; studentId: number };
  const ids: number[] = [];

  beforeAll(async () => {
    const s = await fx.courseWithLesson(school);
    course = s.course;
    lessonA = s.lesson;
    lessonB = await fx.lesson(school, { courseModuleId: s.module.id, releaseAt: new Date('2027-01-01T00:00:00Z') });
    for (const lesson of [lessonA, lessonA, lessonB]) ids.push((await fx.activity(school, lesson.id, {}, [{ title: 'Q', options_attributes: [{ title: 'a', correct: true }] }])).id);
    product = await fx.product(school, course);
    enrollment = await fx.enrollment(school, product);
  });

  const LIST = graphql(`query ($courseId: ID, $schoolProductId: ID, $enrollmentId: ID, $lessonId: ID, $first: Int, $after: String) {
    activities(courseId: $courseId, schoolProductId: $schoolProductId, enrollmentId: $enrollmentId, lessonId: $lessonId, first: $first, after: $after) {
      totalCount nodes { id } pageInfo { hasNextPage endCursor }
    }
  }`);
  const listIds = async (client: Client, variables: Record<string, unknown>) => (await dataOf(client, LIST, variables)).activities.nodes.map((n) => Number(n.id));

  it('given courseId, schoolProductId, enrollmentId or lessonId, then the activities of that scope, and the arguments combine', async () => {
    expect(await listIds(school.admin, { courseId: course.id })).toEqual(ids);
    expect(await listIds(school.admin, { schoolProductId: product.id })).toEqual(ids);
    expect(await listIds(school.admin, { enrollmentId: enrollment.id })).toEqual(ids.slice(0, 2));
    expect(await listIds(school.admin, { lessonId: lessonB.id })).toEqual([ids[2]]);
    expect(await listIds(school.admin, { courseId: course.id, lessonId: lessonA.id, enrollmentId: enrollment.id })).toEqual(ids.slice(0, 2));
    expect(await listIds(school.admin, { lessonId: lessonB.id, enrollmentId: enrollment.id })).toEqual([]);
  });

  it('given first and after, then cursor pages with totalCount', async () => {
    const page1 = (await dataOf(school.admin, LIST, { courseId: course.id, first: 2 })).activities;
    expect(page1.totalCount).toBe(3);
    expect(page1.nodes.map((n) => Number(n.id))).toEqual(ids.slice(0, 2));
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await dataOf(school.admin, LIST, { courseId: course.id, first: 2, after: page1.pageInfo.endCursor })).activities;
    expect(page2.nodes.map((n) => Number(n.id))).toEqual([ids[2]]);
  });

  it("given another school's course, product, enrollment or lesson, then NOT_FOUND", async () => {
    const foreign = await fx.courseWithLesson(other);
    const foreignProduct = await fx.product(other, foreign.course);
    const foreignEnrollment = await fx.enrollment(other, foreignProduct);
    for (const variables of [{ courseId: foreign.course.id }, { lessonId: foreign.lesson.id }, { schoolProductId: foreignProduct.id }, { enrollmentId: foreignEnrollment.id }]) {
      const res = await school.admin.graphql(LIST, variables);
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe('NOT_FOUND');
    }
  });

  it('given a student, then it reads through its enrollment (FORBIDDEN otherwise) and never sees which options are correct', async () => {
    const student = await service.token('student', school.id, enrollment.studentId);
    expect((await student.graphql(LIST, { courseId: course.id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await student.graphql('query ($id: ID!) { activity(id: $id) { id } }', { id: ids[0] })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await listIds(student, { enrollmentId: enrollment.id })).toEqual(ids.slice(0, 2));
    const SHOW = graphql('query ($id: ID!, $e: ID) { activity(id: $id, enrollmentId: $e) { id questions { options { title correct } } } }');
    const seen = await dataOf(student, SHOW, { id: ids[0], e: enrollment.id });
    expect(seen.activity.questions[0].options).toEqual([{ title: 'a', correct: null }]);
    expect((await dataOf(school.admin, SHOW, { id: ids[0] })).activity.questions[0].options).toEqual([{ title: 'a', correct: true }]);
    const unreleased = await student.graphql(SHOW, { id: ids[2], e: enrollment.id });
    expect(unreleased.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('given Lesson.activities, then the activities of the lesson', async () => {
    const data = await dataOf(school.admin, graphql('query ($id: ID!) { lesson(id: $id) { id activities { id examLessonId } } }'), { id: lessonA.id });
    expect(data.lesson.activities).toEqual(ids.slice(0, 2).map((id) => ({ id: String(id), examLessonId: String(lessonA.id) })));
  });

  it('given examQuestion(id), then staff read it with its activity; students are FORBIDDEN; another school is NOT_FOUND', async () => {
    const activity = await dataOf(school.admin, graphql('query ($id: ID!) { activity(id: $id) { questions { id } } }'), { id: ids[0] });
    const questionId = activity.activity.questions[0].id;
    const data = await dataOf(school.admin, graphql('query ($id: ID!) { examQuestion(id: $id) { id title activity { id } options { title } } }'), { id: questionId });
    expect(data.examQuestion).toEqual({ id: questionId, title: 'Q', activity: { id: String(ids[0]) }, options: [{ title: 'a' }] });
    const student = await fx.studentClient(school);
    expect((await student.client.graphql('query ($id: ID!) { examQuestion(id: $id) { id } }', { id: questionId })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await other.admin.graphql('query ($id: ID!) { examQuestion(id: $id) { id } }', { id: questionId })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('nested fields are batched', () => {
  const NESTED = graphql(`{
    activities(first: 100) {
      nodes {
        id lesson { id activities { id } }
        questions { id options { id title correct firstAssertion { text } secondAssertion { text } } answers { id correct } }
      }
    }
  }`);

  /** A school with `count` activities of 3 questions, each question with 3 associative options (6 assertions), and an answer per question. */
  async function seed(count: number) {
    const s = await service.school(`Batching ${count}`);
    const student = await fx.student(s);
    for (let i = 0; i < count; i++) {
      const lesson = await fx.lesson(s);
      const activity = await fx.activity(
        s,
        lesson.id,
        {},
        [0, 1, 2].map((q) => ({
          title: `Q${q}`,
          type: 'associative',
          options_attributes: [0, 1, 2].map((o) => ({ first_assertion_attributes: { text: `L${o}` }, second_assertion_attributes: { text: `R${o}` } })),
        })),
      );
      const attempt = await s.admin.graphql('mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { id } } }', {
        input: { activityId: activity.id, studentId: student.id },
      });
      const questions = await dataOf(s.admin, graphql('query ($id: ID!) { activity(id: $id) { questions { id } } }'), { id: activity.id });
      for (const q of questions.activity.questions)
        await s.admin.post(`/exam_questions/${q.id}/exam_question_answers`, { exam_question_answer: { exam_answer_id: attempt.data.createExamAnswer.examAnswer.id } });
    }
    return s;
  }

  it('activities { questions { options { firstAssertion } answers } lesson { activities } } costs the same for 20 activities as for 1', async () => {
    const one = await seed(1);
    const many = await seed(20);
    let small: any;
    let large: any;
    const smallCount = await service.countStatements(async () => {
      small = await one.admin.graphql(NESTED);
    });
    const largeCount = await service.countStatements(async () => {
      large = await many.admin.graphql(NESTED);
    });
    expect(small.errors).toBeUndefined();
    expect(large.errors).toBeUndefined();
    const nodes = large.data.activities.nodes;
    expect(nodes).toHaveLength(20);
    expect(nodes.flatMap((a: any) => a.questions)).toHaveLength(60);
    expect(nodes.flatMap((a: any) => a.questions.flatMap((q: any) => q.options))).toHaveLength(180);
    expect(nodes.flatMap((a: any) => a.questions.flatMap((q: any) => q.answers))).toHaveLength(60);
    expect(nodes[19].questions[2].options[2]).toMatchObject({ firstAssertion: { text: 'L2' }, secondAssertion: { text: 'R2' } });
    expect(nodes[0].lesson.activities).toEqual([{ id: nodes[0].id }]);
    expect(largeCount).toBe(smallCount);
    // credential, activities page, lessons, lesson activities, questions, options, assertions, answers.
    expect(largeCount).toBeLessThanOrEqual(8);
  });

  it('creating an activity costs a fixed number of statements however large its question tree', async () => {
    const lesson = await fx.lesson(school);
    const tree = (questions: number, options: number) =>
      Array.from({ length: questions }, (_, q) => ({
        title: `Q${q}`,
        type: q % 2 ? 'associative' : 'multiple_choice',
        options_attributes: Array.from({ length: options }, (_, o) =>
          q % 2 ? { first_assertion_attributes: { text: `a${o}` }, second_assertion_attributes: { text: `b${o}` } } : { title: `o${o}`, correct: o === 0 },
        ),
      }));
    const create = (questions: unknown[]) =>
      school.admin.post('/activities', { activity: { title: 'Sized', type: 'exam', show_comments: 'always', exam_lesson_id: lesson.id }, exam_questions_attributes: questions });
    let small: any;
    let large: any;
    const smallCount = await service.countStatements(async () => {
      small = await create(tree(2, 2));
    });
    const largeCount = await service.countStatements(async () => {
      large = await create(tree(200, 20));
    });
    expect(small.status, small.text).toBe(201);
    expect(large.status, large.text).toBe(201);
    const stored = await fx.tree(large.body.id);
    expect(stored).toHaveLength(200);
    expect(stored.flatMap((q) => q.options)).toHaveLength(4000);
    expect(stored[1].options[19]).toMatchObject({ first: 'a19', second: 'b19' });
    expect(largeCount).toBe(smallCount);
  });
});
