import { getNamedType, getNullableType, type GraphQLInputObjectType, isInputObjectType, isListType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSchema } from '../src/service-modules.js';
import { courses } from '../src/modules/courses/course.table.js';
import { coerceInput, shapeInput } from '../src/rest/input.js';
import { snake } from '../src/rest/names.js';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';

// Wire habit: Ruby and Rails clients write times as `Time#to_s` does (`2014-07-25 17:11:29 UTC`,
// `2014-07-25 17:11:29 -0300`), as `to_s(:db)` does with no zone, or as a plain `Date#to_s`.
// Schools have no time zone: a time with no zone is UTC (README, "Wire habits").

const FORMS: [string, string][] = [
  ['2014-07-25 17:11:29 UTC', '2014-07-25T17:11:29.000Z'],
  ['2014-07-25 17:11:29 -0300', '2014-07-25T20:11:29.000Z'],
  ['2014-07-25 17:11:29 +0530', '2014-07-25T11:41:29.000Z'],
  ['2014-07-25T17:11:29', '2014-07-25T17:11:29.000Z'],
  ['2014-07-25 17:11:29', '2014-07-25T17:11:29.000Z'],
  ['2030-01-01', '2030-01-01T00:00:00.000Z'],
  // ISO 8601 as ActiveSupport's JSON writes it, unchanged.
  ['2014-07-25T17:11:29.123-03:00', '2014-07-25T20:11:29.123Z'],
  ['2014-07-25T17:11:29Z', '2014-07-25T17:11:29.000Z'],
];
const NONSENSE = ['2014-13-45', '2014-02-30 10:00:00 UTC', '2014-07-25 25:00:00', 'yesterday', '2014-07-25 17:11:29 Mars'];

let service: Service;
let school: TestSchool;
let courseId: number;
beforeAll(async () => {
  service = await startService();
  school = await service.school('Dates School');
  [{ id: courseId }] = await service.db.insert(courses).values({ schoolId: school.id, name: 'Dated course' }).returning();
});
afterAll(() => service?.stop());

describe('a school product expire_date (JSON, as ActiveResource sends it)', () => {
  it.each(FORMS)('%j is stored as %s', async (sent, instant) => {
    const res = await school.admin.request('POST', '/school_products', undefined, {
      raw: `{"school_product":{"title":"Dated","available_time_type":"date","expire_date":"${sent}"}}`,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status, res.text).toBe(201);
    expect(new Date(res.body.expire_date).toISOString()).toBe(instant);
  });

  it.each(NONSENSE)('%j is refused with a 400 naming the field', async (sent) => {
    const res = await school.admin.request('POST', '/school_products', undefined, {
      raw: `{"school_product":{"title":"Dated","available_time_type":"date","expire_date":"${sent}"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectFieldError(res, 400, 'expire_date', 'invalid_type');
  });
});

describe('a course class start_at and end_at (a form, as rest-client sends it)', () => {
  it('Time#to_s with offsets, on create and on update', async () => {
    const created = await school.admin.request('POST', `/courses/${courseId}/course_classes`, undefined, {
      raw: 'course_class%5Bcode%5D=RUBY-1&course_class%5Bstart_at%5D=2014-07-25+17%3A11%3A29+-0300&course_class%5Bend_at%5D=2014-08-25+17%3A11%3A29+UTC',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ start_at: '2014-07-25T20:11:29.000Z', end_at: '2014-08-25T17:11:29.000Z' });
    const updated = await school.admin.request('PUT', `/course_classes/${created.body.id}`, undefined, {
      raw: 'course_class%5Bend_at%5D=2030-01-01',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.end_at).toBe('2030-01-01T00:00:00.000Z');
  });
});

describe('every writable date field of every input', () => {
  it('reads each Ruby form through the REST input shaping', async () => {
    const schema = await appSchema();
    const inputs = Object.values(schema.getTypeMap()).filter((t): t is GraphQLInputObjectType => isInputObjectType(t) && !t.name.startsWith('__'));
    let seen = 0;
    for (const input of inputs) {
      for (const field of Object.values(input.getFields())) {
        if (getNamedType(field.type).name !== 'DateTime' || isListType(getNullableType(field.type))) continue;
        seen++;
        for (const [sent, instant] of FORMS) {
          const shaped = shapeInput({ [snake(field.name)]: sent }, input, true) as Record<string, unknown>;
          // Other required fields of the input may be missing here: only this field's problems count.
          const problems = coerceInput(shaped, input).problems.filter((p) => p.path[0] === field.name);
          expect(problems, `${input.name}.${field.name} ${sent}`).toEqual([]);
          expect(new Date(shaped[field.name] as string).toISOString(), `${input.name}.${field.name}`).toBe(instant);
        }
      }
    }
    expect(seen).toBeGreaterThan(15);
  });
});
