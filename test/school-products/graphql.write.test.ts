import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { expectNoWrite as expectNoWriteOf } from '../support/fingerprint.js';
import { CREATE, DELETE, expectCode, productGraphqlCreators, schoolProductFixtures, SHOW, UPDATE } from '../support/school-products.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of SchoolProduct: createSchoolProduct, updateSchoolProduct and deleteSchoolProduct, with
// UserError payloads. Operations and fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL School', 'GraphQL Other', (w) => ({ service, school, other } = w));
const { libraryResource, category, mediaItem, person, studentClient, productRow, snapshot } = schoolProductFixtures(() => world.service);
const { create, createTopic } = productGraphqlCreators(() => world.school.admin);
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

describe('createSchoolProduct', () => {
  it('given valid input with references of the school, then the payload carries the product and no errors', async () => {
    const resource = await libraryResource(school);
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const teacher = await person(school, 'Collaborator');

    const product = await create({
      title: 'GraphQL product',
      published: true,
      libraryResourceId: String(resource.id),
      availableTimeType: 'time',
      availableTimeLength: 12,
      availableTimeUnit: 'weeks',
      maxAttendanceType: 'time',
      maxAttendanceLength: 60,
      certificationMinProgress: 70,
      categoryIds: [c2.id, c1.id],
      galleryMediaIds: [m2.id, m3.id, m1.id],
      classTeacherIds: [teacher.id],
    });

    expect(product).toMatchObject({
      id: expect.any(String),
      schoolId: String(school.id),
      title: 'GraphQL product',
      published: true,
      libraryResourceId: String(resource.id),
      availableTimeType: 'time',
      availableTimeLength: 12,
      availableTimeUnit: 'weeks',
      maxAttendanceType: 'time',
      maxAttendanceLength: 60,
      certificationMinProgress: 70,
      galleryMediaIds: [String(m2.id), String(m3.id), String(m1.id)],
      classTeacherIds: [String(teacher.id)],
    });
    expect([...product.categoryIds].sort()).toEqual([String(c1.id), String(c2.id)].sort());
    expect(await productRow(product.id)).toMatchObject({ schoolId: school.id, title: 'GraphQL product', libraryResourceId: resource.id });
  });

  it('given no title, then errors [{field: ["title"], code: "blank"}], a null product, no execution error and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { description: 'untitled' } }));
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data.createSchoolProduct).toEqual({
      schoolProduct: null,
      errors: [{ field: ['title'], code: 'blank', message: "can't be blank" }],
    });
  });

  it.each([
    ['availableTimeType time without length and unit', { availableTimeType: 'time' }, ['availableTimeLength', 'availableTimeUnit'], 'blank'],
    ['availableTimeType date without expireDate', { availableTimeType: 'date' }, ['expireDate'], 'blank'],
    ['published without libraryResourceId', { published: true }, ['libraryResourceId'], 'blank'],
    ['maxAttendanceType attempts without length', { maxAttendanceType: 'attempts' }, ['maxAttendanceLength'], 'blank'],
    ['certificationMinProgress 101', { certificationMinProgress: 101 }, ['certificationMinProgress'], 'less_than_or_equal_to'],
    ['certificationMinProgress -5', { certificationMinProgress: -5 }, ['certificationMinProgress'], 'greater_than_or_equal_to'],
  ])('given %s, then UserErrors name the fields and nothing is written', async (_name, fields, expected, code) => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { title: 'Invalid', ...fields } }));
    expect(res.errors).toBeUndefined();
    const payload = res.data.createSchoolProduct;
    expect(payload.schoolProduct).toBeNull();
    expect(payload.errors.map((e) => e.field[0]).sort()).toEqual([...expected].sort());
    for (const e of payload.errors) {
      expect(e.code).toBe(code);
      expect(e.message).toEqual(expect.any(String));
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it("given references of another school, then not_found UserErrors and nothing written", async () => {
    const res = await expectNoWrite(async () =>
      school.admin.graphql(CREATE, {
        input: {
          title: 'Foreign references',
          published: true,
          libraryResourceId: (await libraryResource(other)).id,
          categoryIds: [(await category(school)).id, (await category(other)).id],
          galleryMediaIds: [(await mediaItem(other)).id],
          classTeacherIds: [(await person(other, 'Collaborator')).id],
        },
      }),
    );
    expect(res.errors).toBeUndefined();
    const payload = res.data.createSchoolProduct;
    expect(payload.schoolProduct).toBeNull();
    expect(payload.errors.map((e) => [e.field.join('.'), e.code]).sort()).toEqual(
      [
        ['categoryIds', 'not_found'],
        ['classTeacherIds', 'not_found'],
        ['galleryMediaIds', 'not_found'],
        ['libraryResourceId', 'not_found'],
      ].sort(),
    );
  });

  it('given an unknown enum value, then the request is refused as bad input and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { title: 'x', availableTimeType: 'weeks' } }));
    expectCode(res, 'BAD_USER_INPUT');
  });

  it('given a student credential, then FORBIDDEN and nothing written', async () => {
    const res = await expectNoWrite(async () => (await studentClient(school)).graphql(CREATE, { input: { title: 'By a student' } }));
    expectCode(res, 'FORBIDDEN');
    expect(res.data?.createSchoolProduct ?? null).toBeNull();
  });

  it('given no credential, then UNAUTHENTICATED; given a wrong token, then 401 UNAUTHENTICATED; nothing written', async () => {
    expectCode(await expectNoWrite(() => service.anonymous.graphql(CREATE, { input: { title: 'Anon' } })), 'UNAUTHENTICATED');
    const wrong = await expectNoWrite(() => service.client('wrong-token').graphql(CREATE, { input: { title: 'Wrong' } }));
    expect(wrong.status).toBe(401);
    expectCode(wrong, 'UNAUTHENTICATED');
  });

  it('given a platform credential without X-School-Id, then a clear error naming the header and nothing written', async () => {
    const res = await expectNoWrite(() => service.platform.graphql(CREATE, { input: { title: 'Platform' } }));
    expectCode(res, 'BAD_USER_INPUT');
    expect(res.errors![0].message).toMatch(/X-School-Id/);
    expect(res.data?.createSchoolProduct ?? null).toBeNull();
  });

  it('given a platform credential with X-School-Id, then the product lands in that school', async () => {
    const product = await create({ title: 'Platform-made' }, service.platform.forSchool(other.id));
    expect(product.schoolId).toBe(String(other.id));
    expect((await productRow(product.id)).schoolId).toBe(other.id);
    // The school's own admin sees it; the other admin does not.
    expect((await other.admin.graphql(SHOW, { id: product.id })).data.schoolProduct.title).toBe('Platform-made');
    expectCode(await school.admin.graphql(SHOW, { id: product.id }), 'NOT_FOUND');
  });
});

describe('updateSchoolProduct', () => {
  it('given some fields, then only they change and the lists not given are kept', async () => {
    const c = await category(school);
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const created = await create({ title: 'To update', description: 'old', categoryIds: [c.id], galleryMediaIds: [m2.id, m1.id] });

    const res = await school.admin.graphql(UPDATE, { id: created.id, input: { description: 'new', certificationMinProgress: 0 } });

    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProduct.errors).toEqual([]);
    expect(res.data.updateSchoolProduct.schoolProduct).toMatchObject({
      id: created.id,
      title: 'To update',
      description: 'new',
      certificationMinProgress: 0,
      categoryIds: [String(c.id)],
      galleryMediaIds: [String(m2.id), String(m1.id)],
    });
    expect(await productRow(created.id)).toMatchObject({ description: 'new', certificationMinProgress: 0 });
  });

  it('given new gallery ids, then they replace the old ones in the order given', async () => {
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const created = await create({ title: 'Gallery', galleryMediaIds: [m1.id, m2.id] });
    const res = await school.admin.graphql(UPDATE, { id: created.id, input: { galleryMediaIds: [m3.id, m1.id] } });
    expect(res.data.updateSchoolProduct.schoolProduct.galleryMediaIds).toEqual([String(m3.id), String(m1.id)]);
  });

  it('given published true on a product without a library resource, then a libraryResourceId UserError and nothing written', async () => {
    const created = await create({ title: 'Draft' });
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: created.id, input: { published: true } }));
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProduct.schoolProduct).toBeNull();
    expect(res.data.updateSchoolProduct.errors).toEqual([{ field: ['libraryResourceId'], code: 'blank', message: expect.stringMatching(/^can't be blank/) }]);
  });

  it('given a cleared title, then a title UserError', async () => {
    const created = await create({ title: 'Keep title' });
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: created.id, input: { title: null } }));
    expect(res.data.updateSchoolProduct.errors).toEqual([{ field: ['title'], code: 'blank', message: "can't be blank" }]);
  });

  it("given another school's product, then NOT_FOUND and its row untouched", async () => {
    const foreign = await create({ title: 'Foreign' }, other.admin);
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: foreign.id, input: { title: 'Stolen' } }));
    expectCode(res, 'NOT_FOUND');
    expect((await productRow(foreign.id)).title).toBe('Foreign');
  });

  it('given a non-numeric id, then NOT_FOUND', async () => {
    expectCode(await school.admin.graphql(UPDATE, { id: 'abc', input: { title: 'x' } }), 'NOT_FOUND');
  });

  it('given a student, then FORBIDDEN and nothing written', async () => {
    const created = await create({ title: 'Guarded' });
    const res = await expectNoWrite(async () => (await studentClient(school)).graphql(UPDATE, { id: created.id, input: { title: 'x' } }));
    expectCode(res, 'FORBIDDEN');
  });

  it('given a platform credential, then it must name the school; named, it writes only in that school', async () => {
    const created = await create({ title: 'Platform target' });
    const unnamed = await expectNoWrite(() => service.platform.graphql(UPDATE, { id: created.id, input: { title: 'Unnamed' } }));
    expectCode(unnamed, 'BAD_USER_INPUT');
    expect(unnamed.errors![0].message).toMatch(/X-School-Id/);

    const wrongSchool = await expectNoWrite(() =>
      service.platform.forSchool(other.id).graphql(UPDATE, { id: created.id, input: { title: 'Wrong school' } }),
    );
    expectCode(wrongSchool, 'NOT_FOUND');

    const named = await service.platform.forSchool(school.id).graphql(UPDATE, { id: created.id, input: { title: 'Named' } });
    expect(named.errors).toBeUndefined();
    expect(named.data.updateSchoolProduct.schoolProduct.title).toBe('Named');
    expect((await productRow(created.id)).title).toBe('Named');
  });
});

describe('deleteSchoolProduct', () => {
  it('given a product, then the payload returns it, its row is gone and it is NOT_FOUND after', async () => {
    const created = await create({ title: 'Doomed' });
    await createTopic(created.id, { title: 'Topic of doomed' });
    const res = await school.admin.graphql(DELETE, { id: created.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteSchoolProduct).toEqual({ schoolProduct: { id: created.id, title: 'Doomed' }, errors: [] });
    expect(await productRow(created.id)).toBeUndefined();
    expect(await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.schoolProductId, Number(created.id)))).toEqual([]);
    expectCode(await school.admin.graphql(SHOW, { id: created.id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(DELETE, { id: created.id }), 'NOT_FOUND');
  });

  it("given another school's product, a student or a platform credential without X-School-Id, then refused and the row stays", async () => {
    const foreign = await create({ title: 'Foreign doomed' }, other.admin);
    expectCode(await expectNoWrite(() => school.admin.graphql(DELETE, { id: foreign.id })), 'NOT_FOUND');
    expectCode(await expectNoWrite(async () => (await studentClient(other)).graphql(DELETE, { id: foreign.id })), 'FORBIDDEN');
    const unnamed = await expectNoWrite(() => service.platform.graphql(DELETE, { id: foreign.id }));
    expectCode(unnamed, 'BAD_USER_INPUT');
    expect(unnamed.errors![0].message).toMatch(/X-School-Id/);
    expect(await productRow(foreign.id)).toBeDefined();

    const named = await service.platform.forSchool(other.id).graphql(DELETE, { id: foreign.id });
    expect(named.data.deleteSchoolProduct.errors).toEqual([]);
    expect(await productRow(foreign.id)).toBeUndefined();
  });
});
