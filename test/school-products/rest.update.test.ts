import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoWrite as expectNoWriteOf } from '../support/fingerprint.js';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: PUT and PATCH /school_products/:id. Fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Main School', 'Other School', (w) => ({ service, school, other } = w));
const { libraryResource, category, mediaItem, person, studentClient, productRow, linksOf, snapshot } = schoolProductFixtures(() => world.service);
const expectNoWrite = (work: () => Promise<Reply>) => expectNoWriteOf(snapshot, work);
const createProduct = productCreator(() => world.school.admin);

describe('PUT and PATCH /school_products/:id', () => {
  it.each(['PUT', 'PATCH'] as const)('given a %s with new values, then 200 with the product and a Location naming the show path', async (method) => {
    const created = await createProduct({ title: 'Before', description: 'old' });
    const resource = await libraryResource(school);
    const res = await school.admin.request(method, `/school_products/${created.id}`, {
      school_product: {
        title: 'After',
        description: 'new',
        published: true,
        library_resource_id: resource.id,
        available_time_type: 'date',
        expire_date: '2027-01-31T00:00:00Z',
        max_attendance_type: 'attempts',
        max_attendance_length: 5,
        certification_min_progress: 100,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/school_products/${created.id}`);
    expect(res.body).toMatchObject({
      id: created.id,
      title: 'After',
      description: 'new',
      published: true,
      library_resource_id: resource.id,
      available_time_type: 'date',
      max_attendance_type: 'attempts',
      max_attendance_length: 5,
      certification_min_progress: 100,
    });
    expect(new Date(res.body.expire_date).toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(await productRow(created.id)).toMatchObject({ title: 'After', description: 'new', published: true, libraryResourceId: resource.id });
    const shown = await school.admin.get(`/school_products/${created.id}`);
    expect(shown.body).toEqual(res.body);
  });

  it('given a PATCH of one field, then the other fields and the lists are kept', async () => {
    const c = await category(school);
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const t = await person(school, 'Collaborator');
    const created = await createProduct({
      title: 'Keep me',
      subtitle: 'kept',
      category_ids: [c.id],
      gallery_media_ids: [m2.id, m1.id],
      class_teacher_ids: [t.id],
    });
    const res = await school.admin.patch(`/school_products/${created.id}`, { school_product: { description: 'only this' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Keep me',
      subtitle: 'kept',
      description: 'only this',
      category_ids: [c.id],
      gallery_media_ids: [m2.id, m1.id],
      class_teacher_ids: [t.id],
    });
    expect(await linksOf(created.id)).toEqual({ categoryIds: [c.id], galleryMediaIds: [m2.id, m1.id], classTeacherIds: [t.id] });
  });

  it('given new lists, then they replace the old ones (gallery order as sent); empty lists clear them', async () => {
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const [t1, t2] = [await person(school, 'Collaborator'), await person(school, 'Collaborator')];
    const created = await createProduct({ title: 'Lists', category_ids: [c1.id], gallery_media_ids: [m1.id, m2.id], class_teacher_ids: [t1.id] });

    const replaced = await school.admin.put(`/school_products/${created.id}`, {
      school_product: { category_ids: [c2.id], gallery_media_ids: [m3.id, m2.id, m1.id], class_teacher_ids: [t2.id, t1.id] },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ category_ids: [c2.id], gallery_media_ids: [m3.id, m2.id, m1.id] });
    expect(await linksOf(created.id)).toEqual({
      categoryIds: [c2.id],
      galleryMediaIds: [m3.id, m2.id, m1.id],
      classTeacherIds: [t1.id, t2.id].sort((a, b) => a - b),
    });

    const cleared = await school.admin.patch(`/school_products/${created.id}`, {
      school_product: { category_ids: [], gallery_media_ids: [], class_teacher_ids: [] },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ category_ids: [], gallery_media_ids: [], class_teacher_ids: [] });
    expect(await linksOf(created.id)).toEqual({ categoryIds: [], galleryMediaIds: [], classTeacherIds: [] });
  });

  it('given a form-urlencoded PATCH with bracket names, then it updates; `ids[]=` clears a list', async () => {
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const created = await createProduct({ title: 'Form update', category_ids: [c1.id], gallery_media_ids: [m1.id] });

    const res = await school.admin.patch(
      `/school_products/${created.id}`,
      { school_product: { title: 'Form updated', hidden: 'true', certification_min_progress: '55', category_ids: [c2.id, c1.id], gallery_media_ids: [m2.id, m1.id] } },
      { encoding: 'form' },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/school_products/${created.id}`);
    expect(res.body).toMatchObject({ title: 'Form updated', hidden: true, certification_min_progress: 55, gallery_media_ids: [m2.id, m1.id] });
    expect(await linksOf(created.id)).toMatchObject({ categoryIds: [c1.id, c2.id].sort((a, b) => a - b), galleryMediaIds: [m2.id, m1.id] });

    const cleared = await school.admin.patch(`/school_products/${created.id}`, undefined, {
      raw: 'school_product[category_ids][]=&school_product[title]=Form+cleared',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ title: 'Form cleared', category_ids: [], gallery_media_ids: [m2.id, m1.id] });
    expect((await linksOf(created.id)).categoryIds).toEqual([]);
  });

  it('given a multipart PUT, then it updates', async () => {
    const m1 = await mediaItem(school);
    const created = await createProduct({ title: 'Multipart update' });
    const res = await school.admin.put(
      `/school_products/${created.id}`,
      { school_product: { subtitle: 'via multipart', max_attendance_type: 'time', max_attendance_length: '45', gallery_media_ids: [m1.id] } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Multipart update', subtitle: 'via multipart', max_attendance_type: 'time', max_attendance_length: 45, gallery_media_ids: [m1.id] });
    expect(await productRow(created.id)).toMatchObject({ subtitle: 'via multipart', maxAttendanceLength: 45 });
  });

  it('given the whole fetched object sent back, then read-only fields are ignored and nothing changes', async () => {
    const c = await category(school);
    const m = await mediaItem(school);
    const created = await createProduct({ title: 'Round trip', category_ids: [c.id], gallery_media_ids: [m.id] });
    const fetched = (await school.admin.get(`/school_products/${created.id}`)).body;
    const res = await school.admin.put(`/school_products/${created.id}`, { school_product: { ...fetched, school_id: other.id, id: 1 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ...fetched, updated_at: expect.any(String) });
    expect((await productRow(created.id)).schoolId).toBe(school.id);
    expect(await linksOf(created.id)).toEqual({ categoryIds: [c.id], galleryMediaIds: [m.id], classTeacherIds: [] });
  });

  describe('invalid updates: 422 and the product untouched', () => {
    it('given a blank title, then title is blank', async () => {
      const created = await createProduct({ title: 'Titled' });
      const res = await expectNoWrite(() => school.admin.patch(`/school_products/${created.id}`, { school_product: { title: '' } }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { title: ["can't be blank"] }, details: { title: [{ error: 'blank' }] } });
    });

    it('given published true on an unpublished product without a library resource, then library_resource_id is blank', async () => {
      const created = await createProduct({ title: 'Draft' });
      const res = await expectNoWrite(() => school.admin.patch(`/school_products/${created.id}`, { school_product: { published: true } }));
      expectFieldError(res, 422, 'library_resource_id', 'blank');
      expect((await productRow(created.id)).published).toBe(false);
    });

    it('given a published product, when its library_resource_id is cleared, then library_resource_id is blank', async () => {
      const resource = await libraryResource(school);
      const created = await createProduct({ title: 'Live', published: true, library_resource_id: resource.id });
      const res = await expectNoWrite(() => school.admin.put(`/school_products/${created.id}`, { school_product: { library_resource_id: null } }));
      expectFieldError(res, 422, 'library_resource_id', 'blank');
    });

    it('given a published product with a resource, when unrelated fields change, then the rule still holds (200)', async () => {
      const resource = await libraryResource(school);
      const created = await createProduct({ title: 'Live 2', published: true, library_resource_id: resource.id });
      const res = await school.admin.patch(`/school_products/${created.id}`, { school_product: { subtitle: 'fine' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ published: true, library_resource_id: resource.id, subtitle: 'fine' });
    });

    it('given available_time_type switched to date without expire_date, then expire_date is blank', async () => {
      const created = await createProduct({ title: 'Timed', available_time_type: 'time', available_time_length: 3, available_time_unit: 'weeks' });
      const res = await expectNoWrite(() => school.admin.patch(`/school_products/${created.id}`, { school_product: { available_time_type: 'date' } }));
      expectFieldError(res, 422, 'expire_date', 'blank');
    });

    it('given a time-limited product, when available_time_length is cleared, then available_time_length is blank', async () => {
      const created = await createProduct({ title: 'Timed 2', available_time_type: 'time', available_time_length: 3, available_time_unit: 'weeks' });
      const res = await expectNoWrite(() =>
        school.admin.patch(`/school_products/${created.id}`, { school_product: { available_time_length: null } }),
      );
      expectFieldError(res, 422, 'available_time_length', 'blank');
    });

    it('given max_attendance_type without a length, then max_attendance_length is blank', async () => {
      const created = await createProduct({ title: 'Attendance' });
      const res = await expectNoWrite(() =>
        school.admin.patch(`/school_products/${created.id}`, { school_product: { max_attendance_type: 'attempts' } }),
      );
      expectFieldError(res, 422, 'max_attendance_length', 'blank');
    });

    it('given certification_min_progress 150, then 422', async () => {
      const created = await createProduct({ title: 'Cert' });
      const res = await expectNoWrite(() =>
        school.admin.patch(`/school_products/${created.id}`, { school_product: { certification_min_progress: 150 } }),
      );
      expectFieldError(res, 422, 'certification_min_progress', 'less_than_or_equal_to');
    });

    it("given another school's category, media, teacher or library resource, then 422 and the lists stay", async () => {
      const [c, m, t] = [await category(school), await mediaItem(school), await person(school, 'Collaborator')];
      const created = await createProduct({ title: 'Linked', category_ids: [c.id], gallery_media_ids: [m.id], class_teacher_ids: [t.id] });
      const cases: [Record<string, unknown>, string][] = [
        [{ category_ids: [(await category(other)).id] }, 'category_ids'],
        [{ gallery_media_ids: [m.id, (await mediaItem(other)).id] }, 'gallery_media_ids'],
        [{ class_teacher_ids: [(await person(other, 'Collaborator')).id] }, 'class_teacher_ids'],
        [{ library_resource_id: (await libraryResource(other)).id }, 'library_resource_id'],
      ];
      for (const [fields, field] of cases) {
        const res = await expectNoWrite(() => school.admin.patch(`/school_products/${created.id}`, { school_product: { title: 'Renamed', ...fields } }));
        expectFieldError(res, 422, field, 'not_found');
      }
      expect(await linksOf(created.id)).toEqual({ categoryIds: [c.id], galleryMediaIds: [m.id], classTeacherIds: [t.id] });
      expect((await productRow(created.id)).title).toBe('Linked');
    });
  });

  describe('refused updates', () => {
    let product: { id: number };
    beforeAll(async () => {
      product = await createProduct({ title: 'Guarded' });
    });

    it.each([
      ['invalid JSON', { raw: '{"school_product": ', headers: { 'content-type': 'application/json' } }, undefined],
      ['a missing resource key', {}, { title: 'unwrapped' }],
      ['certification_min_progress "abc"', {}, { school_product: { certification_min_progress: 'abc' } }],
      ['a boolean that is no boolean', {}, { school_product: { hidden: 'perhaps' } }],
    ])('given %s, then 400 and the product untouched', async (_name, options, body) => {
      for (const method of ['PUT', 'PATCH']) {
        const res = await expectNoWrite(() => school.admin.request(method, `/school_products/${product.id}`, body, options as any));
        expectErrorBody(res, 400);
      }
    });

    it("given another school's product, then 404 and its row untouched", async () => {
      const foreign = await createProduct({ title: 'Theirs' }, other.admin);
      for (const method of ['PUT', 'PATCH']) {
        const res = await expectNoWrite(() => school.admin.request(method, `/school_products/${foreign.id}`, { school_product: { title: 'Mine now' } }));
        expectErrorBody(res, 404);
        expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
      }
      expect((await productRow(foreign.id)).title).toBe('Theirs');
    });

    it.each(['abc', '999999'])('given the id %s, then 404', async (id) => {
      const res = await expectNoWrite(() => school.admin.put(`/school_products/${id}`, { school_product: { title: 'x' } }));
      expectErrorBody(res, 404);
      expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    });

    it('given no credential, a wrong token or a student, then 401, 401, 403 and the product untouched', async () => {
      const student = await studentClient(school);
      const body = { school_product: { title: 'Hijacked' } };
      expectErrorBody(await expectNoWrite(() => service.anonymous.patch(`/school_products/${product.id}`, body)), 401);
      expectErrorBody(await expectNoWrite(() => service.client('wrong').put(`/school_products/${product.id}`, body)), 401);
      expectErrorBody(await expectNoWrite(() => student.patch(`/school_products/${product.id}`, body)), 403);
      expectErrorBody(await expectNoWrite(() => student.put(`/school_products/${product.id}`, body)), 403);
      expect((await productRow(product.id)).title).toBe('Guarded');
    });

    it('given a platform credential, then without X-School-Id 400 naming the header; with it, 200 in that school only', async () => {
      const body = { school_product: { subtitle: 'by the platform' } };
      const unnamed = await expectNoWrite(() => service.platform.patch(`/school_products/${product.id}`, body));
      expectErrorBody(unnamed, 400);
      expect(JSON.stringify(unnamed.body.errors)).toMatch(/X-School-Id/);
      expectErrorBody(await expectNoWrite(() => service.platform.forSchool(other.id).patch(`/school_products/${product.id}`, body)), 404);
      const named = await service.platform.forSchool(school.id).patch(`/school_products/${product.id}`, body);
      expect(named.status, named.text).toBe(200);
      expect(named.headers.location).toBe(`/school_products/${product.id}`);
      expect((await productRow(product.id)).subtitle).toBe('by the platform');
    });
  });
});
