import { describe, expect, it } from 'vitest';
import { extraContents } from '../src/modules/extra-contents/extra-content.table.js';
import { type ExtraFixtures, fixtures } from './support/extra-contents.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of ExtraContent: queries and mutations (STAFF), the UserErrors of the payload, the
// Lesson/Course/SchoolProduct.extraContents fields (ordered, available only through an enrollment
// or for a student) and the statement count of those fields.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ExtraFixtures;

twoSchools('GraphQL Extra Contents', 'GraphQL Extra Contents Other', (w) => {
  ({ service, school, other } = w);
  f = fixtures(service);
});

const FIELDS = 'id schoolId resourceType resourceId mediaId order downloadable available title createdAt updatedAt';
const createQ = `mutation ($input: ExtraContentInput!) { createExtraContent(input: $input) { extraContent { ${FIELDS} media { id title } } errors { field code message } } }`;
const updateQ = `mutation ($id: ID!, $input: ExtraContentInput!) { updateExtraContent(id: $id, input: $input) { extraContent { ${FIELDS} } errors { field code message } } }`;
const deleteQ = graphql(`mutation ($id: ID!) { deleteExtraContent(id: $id) { extraContent { id } errors { code } } }`);
const showQ = `query ($id: ID!) { extraContent(id: $id) { ${FIELDS} media { id title } } }`;
const listQ = graphql(`query ($t: String, $r: ID, $m: ID) { extraContents(resourceType: $t, resourceId: $r, mediaId: $m, first: 100) { totalCount nodes { id } } }`);

const numbers = (list: { id: string }[]) => list.map((x) => Number(x.id));
const codes = (errors: { field: string[]; code: string }[]) => errors.map((e) => [e.field.join('.'), e.code]).sort();

async function createExtra(input: Record<string, unknown>, client: Client = school.admin) {
  const data = await dataOf(client, createQ, { input });
  expect(data.createExtraContent.errors).toEqual([]);
  return data.createExtraContent.extraContent;
}

describe('queries and mutations', () => {
  it('given a valid input, when createExtraContent, then the extra content comes back with its media', async () => {
    const product = await f.product(school);
    const sheet = await f.media(school, 'Catalogue');
    const made = await createExtra({ resourceType: 'school_product', resourceId: product.id, mediaId: sheet.id, order: 2, downloadable: true, available: false, title: 'Catalogue' });
    expect(made).toMatchObject({
      schoolId: String(school.id),
      resourceType: 'SchoolProduct',
      resourceId: String(product.id),
      mediaId: String(sheet.id),
      order: 2,
      downloadable: true,
      available: false,
      title: 'Catalogue',
      media: { id: String(sheet.id), title: 'Catalogue' },
    });
    expect(await f.extraRow(Number(made.id))).toMatchObject({ resourceType: 'SchoolProduct', resourceId: product.id, available: false });
  });

  it('given an empty input, when createExtraContent, then every required field is a blank UserError and nothing is written', async () => {
    const before = await f.allExtraRows();
    const data = await dataOf(school.admin, createQ, { input: {} });
    expect(data.createExtraContent.extraContent).toBeNull();
    expect(codes(data.createExtraContent.errors)).toEqual([
      ['available', 'blank'],
      ['downloadable', 'blank'],
      ['mediaId', 'blank'],
      ['order', 'blank'],
      ['resourceId', 'blank'],
    ]);
    expect(await f.allExtraRows()).toEqual(before);
  });

  it('given a wrong type, a foreign resource and a foreign media, when createExtraContent, then each is a UserError', async () => {
    const lesson = await f.lesson(school);
    const foreignMedia = await f.media(other);
    const foreignCourse = await f.course(other);
    const before = await f.allExtraRows();
    const base = { resourceId: lesson.id, mediaId: foreignMedia.id, order: 0, downloadable: false, available: true };
    const bad = await dataOf(school.admin, createQ, { input: { ...base, resourceType: 'Module', order: -1 } });
    expect(codes(bad.createExtraContent.errors)).toEqual([
      ['mediaId', 'not_found'],
      ['order', 'greater_than_or_equal_to'],
      ['resourceType', 'inclusion'],
    ]);
    const foreign = await dataOf(school.admin, createQ, { input: { ...base, mediaId: (await f.media(school)).id, resourceType: 'Course', resourceId: foreignCourse.id } });
    expect(codes(foreign.createExtraContent.errors)).toEqual([['resourceId', 'not_found']]);
    expect(foreign.createExtraContent.errors[0].message).toContain('Course');
    expect(await f.allExtraRows()).toEqual(before);
  });

  it('extraContent, extraContents filtered by resource and media, update and delete', async () => {
    const course = await f.course(school);
    const lesson = await f.lesson(school);
    const sheet = await f.media(school);
    const onCourse = await createExtra({ resourceType: 'Course', resourceId: course.id, mediaId: sheet.id, order: 0, downloadable: false, available: true });
    const onLesson = await createExtra({ resourceId: lesson.id, mediaId: sheet.id, order: 0, downloadable: false, available: true });
    expect(onLesson.resourceType).toBe('Lesson');

    expect(numbers((await dataOf(school.admin, listQ, { t: 'course', r: course.id })).extraContents.nodes)).toEqual([Number(onCourse.id)]);
    expect(numbers((await dataOf(school.admin, listQ, { m: sheet.id })).extraContents.nodes)).toEqual([Number(onCourse.id), Number(onLesson.id)]);
    expect((await dataOf(school.admin, listQ, { m: sheet.id })).extraContents.totalCount).toBe(2);
    expect((await dataOf(school.admin, listQ, { t: 'Nothing' })).extraContents.totalCount).toBe(0);

    const upd = await dataOf(school.admin, updateQ, { id: onLesson.id, input: { order: 5, title: 'Renamed', resourceType: 'Course', resourceId: course.id } });
    expect(upd.updateExtraContent.errors).toEqual([]);
    expect(upd.updateExtraContent.extraContent).toMatchObject({ order: 5, title: 'Renamed', resourceType: 'Course', resourceId: String(course.id), mediaId: String(sheet.id) });
    const cleared = await dataOf(school.admin, updateQ, { id: onLesson.id, input: { mediaId: null, available: null } });
    expect(codes(cleared.updateExtraContent.errors)).toEqual([['available', 'blank'], ['mediaId', 'blank']]);
    expect((await dataOf(school.admin, showQ, { id: onLesson.id })).extraContent).toMatchObject({ order: 5, available: true, media: { id: String(sheet.id) } });

    const del = await dataOf(school.admin, deleteQ, { id: onLesson.id });
    expect(del.deleteExtraContent).toEqual({ extraContent: { id: onLesson.id }, errors: [] });
    expect((await school.admin.graphql(showQ, { id: onLesson.id })).errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it("given another school's extra content, then reads, updates and deletes are NOT_FOUND and it is untouched", async () => {
    const theirs = await createExtra(
      { resourceId: (await f.lesson(other)).id, mediaId: (await f.media(other)).id, order: 0, downloadable: false, available: true },
      other.admin,
    );
    expect((await school.admin.graphql(showQ, { id: theirs.id })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await school.admin.graphql(updateQ, { id: theirs.id, input: { title: 'x' } })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await school.admin.graphql(deleteQ, { id: theirs.id })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect(numbers((await dataOf(school.admin, listQ, {})).extraContents.nodes)).not.toContain(Number(theirs.id));
    expect(await f.extraRow(Number(theirs.id))).toMatchObject({ title: null });
  });

  it('given a student credential, then the root fields are FORBIDDEN', async () => {
    const student = await f.studentClient(school);
    const lesson = await f.lesson(school);
    const sheet = await f.media(school);
    const row = await f.extraContent(school, { resourceId: lesson.id, mediaId: sheet.id });
    for (const [q, v] of [
      [showQ, { id: row.id }],
      [listQ, {}],
      [createQ, { input: { resourceId: lesson.id, mediaId: sheet.id, order: 0, downloadable: true, available: true } }],
      [updateQ, { id: row.id, input: { title: 'x' } }],
      [deleteQ, { id: row.id }],
    ] as const) {
      expect((await student.graphql(q, v)).errors![0].extensions.code).toBe('FORBIDDEN');
    }
    expect(await f.extraRow(row.id)).toEqual(row);
  });
});

describe('Lesson, Course and SchoolProduct extraContents', () => {
  it('lists each resource\'s own extra contents ordered by order then id, available or not for staff', async () => {
    const { course, lessons } = await f.courseWithLessons(school, [{}, {}]);
    const product = await f.product(school);
    const sheet = await f.media(school);
    const [lesson, sibling] = lessons;
    const l2 = await f.extraContent(school, { resourceId: lesson.id, mediaId: sheet.id, order: 2 });
    const l0 = await f.extraContent(school, { resourceId: lesson.id, mediaId: sheet.id, order: 0, available: false });
    const l1a = await f.extraContent(school, { resourceId: lesson.id, mediaId: sheet.id, order: 1 });
    const l1b = await f.extraContent(school, { resourceId: lesson.id, mediaId: sheet.id, order: 1 });
    const onSibling = await f.extraContent(school, { resourceId: sibling.id, mediaId: sheet.id, order: 0 });
    const c1 = await f.extraContent(school, { resourceType: 'Course', resourceId: course.id, mediaId: sheet.id, order: 1 });
    const c0 = await f.extraContent(school, { resourceType: 'Course', resourceId: course.id, mediaId: sheet.id, order: 0, available: false });
    const p0 = await f.extraContent(school, { resourceType: 'SchoolProduct', resourceId: product.id, mediaId: sheet.id, order: 0 });
    // Another type with the lesson's id belongs to that other resource, not to the lesson.
    const sameIdOtherType = await f.extraContent(school, { resourceType: 'SchoolProduct', resourceId: lesson.id, mediaId: sheet.id, order: 0 });

    const data = await dataOf(
      school.admin,
      graphql(`query ($l: ID!, $s: ID!, $c: ID!, $p: ID!) {
        lesson(id: $l) { extraContents { id order available media { id } } }
        sibling: lesson(id: $s) { extraContents { id } }
        course(id: $c) { extraContents { id } }
        schoolProduct(id: $p) { extraContents { id resourceType } }
      }`),
      { l: lesson.id, s: sibling.id, c: course.id, p: product.id },
    );
    expect(numbers(data.lesson.extraContents)).toEqual([l0.id, l1a.id, l1b.id, l2.id]);
    expect(numbers(data.lesson.extraContents)).not.toContain(sameIdOtherType.id);
    expect(data.lesson.extraContents[0]).toEqual({ id: String(l0.id), order: 0, available: false, media: { id: String(sheet.id) } });
    expect(numbers(data.sibling.extraContents)).toEqual([onSibling.id]);
    expect(numbers(data.course.extraContents)).toEqual([c0.id, c1.id]);
    expect(data.schoolProduct.extraContents).toEqual([{ id: String(p0.id), resourceType: 'SchoolProduct' }]);
    // (That row names no real product: it goes, lest a later product get the lesson's id.)
    await dataOf(school.admin, deleteQ, { id: sameIdOtherType.id });
  });

  it('through an enrollment, or for a student, only the available ones', async () => {
    const { course, lessons } = await f.courseWithLessons(school, [{}]);
    const [lesson] = lessons;
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    const sheet = await f.media(school);
    const add = (resourceType: 'Lesson' | 'Course' | 'SchoolProduct', resourceId: number, available: boolean, order: number) =>
      f.extraContent(school, { resourceType, resourceId, mediaId: sheet.id, available, order });
    const lessonShown = await add('Lesson', lesson.id, true, 1);
    const lessonHidden = await add('Lesson', lesson.id, false, 0);
    const courseShown = await add('Course', course.id, true, 0);
    await add('Course', course.id, false, 1);
    const productShown = await add('SchoolProduct', product.id, true, 3);
    await add('SchoolProduct', product.id, false, 2);
    const enrollment = await f.enrollment(school, product.id);

    const throughEnrollment = graphql(`query ($e: ID!, $c: ID!) {
      enrollment(id: $e) {
        lessons { extraContents { id } }
        courses { extraContents { id } modules { lessons { extraContents { id } } } }
        schoolProduct { extraContents { id } }
      }
      lessons(enrollmentId: $e) { nodes { extraContents { id } } }
      course(id: $c, enrollmentId: $e) { extraContents { id } }
    }`);
    const seen = (data: any) => ({
      lesson: numbers(data.enrollment.lessons[0].extraContents),
      nested: numbers(data.enrollment.courses[0].modules[0].lessons[0].extraContents),
      root: numbers(data.lessons.nodes[0].extraContents),
      course: numbers(data.enrollment.courses[0].extraContents),
      scopedCourse: numbers(data.course.extraContents),
      product: numbers(data.enrollment.schoolProduct.extraContents),
    });
    const vars = { e: enrollment.id, c: course.id };
    // The student sees the available ones everywhere.
    expect(seen(await dataOf(enrollment.student, throughEnrollment, vars))).toEqual({
      lesson: [lessonShown.id],
      nested: [lessonShown.id],
      root: [lessonShown.id],
      course: [courseShown.id],
      scopedCourse: [courseShown.id],
      product: [productShown.id],
    });
    // Staff reading through the enrollment see what its student sees (the product field is not scoped: staff see all).
    const staff = seen(await dataOf(school.admin, throughEnrollment, vars));
    expect(staff).toMatchObject({ lesson: [lessonShown.id], nested: [lessonShown.id], root: [lessonShown.id], course: [courseShown.id], scopedCourse: [courseShown.id] });
    // Staff reading the school's content see them all; a student reading the catalogue sees the available ones.
    const catalogue = graphql(`query ($c: ID!, $p: ID!) { course(id: $c) { extraContents { id } } schoolProduct(id: $p) { extraContents { id } } }`);
    const all = await dataOf(school.admin, catalogue, { c: course.id, p: product.id });
    expect(all.course.extraContents).toHaveLength(2);
    expect(all.schoolProduct.extraContents).toHaveLength(2);
    const asStudent = await dataOf(enrollment.student, graphql(`query ($p: ID!) { schoolProduct(id: $p) { extraContents { id } } }`), { p: product.id });
    expect(numbers(asStudent.schoolProduct.extraContents)).toEqual([productShown.id]);
    // Made available, the hidden lesson extra content shows through the enrollment, in its order.
    await dataOf(school.admin, updateQ, { id: lessonHidden.id, input: { available: true } });
    expect(seen(await dataOf(enrollment.student, throughEnrollment, vars)).lesson).toEqual([lessonHidden.id, lessonShown.id]);
  });

  it('given an enrollment that is not active, then nothing is shown through it', async () => {
    const { course, lessons } = await f.courseWithLessons(school, [{}]);
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    const sheet = await f.media(school);
    await f.extraContent(school, { resourceId: lessons[0].id, mediaId: sheet.id });
    const enrollment = await f.enrollment(school, product.id, { status: 'pending' });
    const data = await dataOf(enrollment.student, graphql(`query ($e: ID!) { enrollment(id: $e) { courses { extraContents { id } } lessons { extraContents { id } } } }`), {
      e: enrollment.id,
    });
    expect(data.enrollment).toEqual({ courses: [], lessons: [] });
  });

  it('the extra contents of N lessons, their courses and products cost the same statements as of 1', async () => {
    const sheet = await f.media(school);
    /** A product offering one course of one module with `n` lessons, each lesson, the course and the product with 2 extra contents. */
    async function content(n: number) {
      const { course, module, lessons } = await f.courseWithLessons(school, Array.from({ length: n }, () => ({})));
      const product = await f.product(school);
      await f.offer(product.id, [course.id]);
      const rows: (typeof extraContents.$inferInsert)[] = [];
      const two = (resourceType: 'Lesson' | 'Course' | 'SchoolProduct', resourceId: number) =>
        [1, 0].forEach((order) => rows.push({ schoolId: school.id, resourceType, resourceId, mediaId: sheet.id, order, available: true, downloadable: true }));
      lessons.forEach((l) => two('Lesson', l.id));
      two('Course', course.id);
      two('SchoolProduct', product.id);
      await service.db.insert(extraContents).values(rows);
      return { module, product };
    }
    const query = graphql(`query ($m: ID!, $p: ID!) {
      lessons(courseModuleId: $m, first: 100) { nodes { id extraContents { id order media { id } } } }
      schoolProduct(id: $p) { extraContents { id media { id } } courses { extraContents { id } modules { lessons { extraContents { id media { title } } } } } }
    }`);
    async function measure(n: number) {
      const { module, product } = await content(n);
      let data: any;
      const statements = await service.countStatements(async () => {
        data = await dataOf(school.admin, query, { m: module.id, p: product.id });
      });
      expect(data.lessons.nodes).toHaveLength(n);
      for (const l of data.lessons.nodes) expect(l.extraContents.map((e: any) => e.order)).toEqual([0, 1]);
      expect(data.schoolProduct.extraContents).toHaveLength(2);
      expect(data.schoolProduct.courses[0].extraContents).toHaveLength(2);
      expect(data.schoolProduct.courses[0].modules[0].lessons.flatMap((l: any) => l.extraContents)).toHaveLength(2 * n);
      return statements;
    }
    const one = await measure(1);
    const many = await measure(12);
    expect(many).toBe(one);
  });
});
