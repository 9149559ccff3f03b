import { describe, expect, it } from 'vitest';
import { Fixtures } from '../support/activities.fixtures.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// GET /activities/:id carries its questions and their options, so a REST client can answer an
// exam; a student (who reads through its enrollment) never gets the answer key (`correct` reads
// null: the role matrix's `answerKey` field rule). Questions and options load through loaders:
// the statements do not grow with the questions.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;
let activityId: number;
let enrollment: { id: number; studentId: number };
let lessonId: number;
let productId: number;

const questions = (n = 2) => [
  {
    title: 'Which are primes?',
    type: 'multiple_choice',
    point: 3,
    options_attributes: [
      { title: '2', correct: true },
      { title: '4', correct: false },
    ],
  },
  ...Array.from({ length: n - 1 }, (_, i) => ({ title: `Explain ${i}`, type: 'essay', comment: 'Use an example', point: 5 })),
];

twoSchools('Questions School', 'Other School', async (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);
  const { course, lesson } = await fx.courseWithLesson(school);
  lessonId = lesson.id;
  const product = await fx.product(school, course);
  productId = product.id;
  activityId = (await fx.activity(school, lesson.id, { title: 'Final' }, questions())).id;
  enrollment = await fx.enrollment(school, product);
});

describe('GET /activities/:id with its questions', () => {
  it('given an admin, then the questions by position with their options, each option with its correct flag', async () => {
    const res = await school.admin.get(`/activities/${activityId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: activityId, title: 'Final' });
    const [choice, essay] = res.body.questions;
    expect(choice).toMatchObject({ title: 'Which are primes?', type: 'multiple_choice', position: 0, point: 3, activity_id: activityId });
    expect(choice.options.map((o: any) => [o.title, o.correct, o.position])).toEqual([
      ['2', true, 0],
      ['4', false, 1],
    ]);
    expect(essay).toMatchObject({ title: 'Explain 0', type: 'essay', options: [], comment: 'Use an example', point: 5 });
    // An embedded question carries its leaf fields and its options, no other relation.
    expect(Object.keys(choice)).not.toContain('answers');
    expect(Object.keys(choice)).not.toContain('activity');
  });

  it('given a student reading through its enrollment, then the same questions and options, every correct null', async () => {
    const client = await service.token('student', school.id, enrollment.studentId);
    const res = await client.get(`/enrollments/${enrollment.id}/activities/${activityId}`);
    expect(res.status, res.text).toBe(200);
    const options = res.body.questions.flatMap((q: any) => q.options);
    expect(options.map((o: any) => o.title)).toEqual(['2', '4']);
    expect(options.every((o: any) => o.correct === null)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('"correct":true');
    // The list a student reads carries them the same way.
    const list = await client.get(`/enrollments/${enrollment.id}/activities`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.flatMap((a: any) => a.questions.flatMap((q: any) => q.options)).every((o: any) => o.correct === null)).toBe(true);
    // And GraphQL, reached from anywhere: the field rule holds for every path to an option.
    const gql = await client.graphql(`query ($id: ID!, $e: ID!) { activity(id: $id, enrollmentId: $e) { questions { options { title correct } } } }`, {
      id: String(activityId),
      e: String(enrollment.id),
    });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.activity.questions[0].options).toEqual([
      { title: '2', correct: null },
      { title: '4', correct: null },
    ]);
  });

  it("given another school's admin, then 404 and nothing of the activity", async () => {
    const res = await other.admin.get(`/activities/${activityId}`);
    expectNotFound(res);
    expect(res.text).not.toContain('primes');
  });

  it('given many questions and activities, then the statements do not grow with them (loaders, no N+1)', async () => {
    const one = await service.countStatements(() => school.admin.get(`/activities/${activityId}`));
    const big = (await fx.activity(school, lessonId, { title: 'Big' }, questions(12))).id;
    const many = await service.countStatements(() => school.admin.get(`/activities/${big}`));
    expect(many).toBe(one);
    const list = await service.countStatements(() => school.admin.get(`/school_products/${productId}/activities`));
    for (let i = 0; i < 3; i++) await fx.activity(school, lessonId, {}, questions(4));
    expect(await service.countStatements(() => school.admin.get(`/school_products/${productId}/activities`))).toBe(list);
  });
});
