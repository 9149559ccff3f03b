import { describe, expect, it } from 'vitest';
import { expectNoWrite as expectNoWriteOf } from '../support/fingerprint.js';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: the creates refused (invalid objects, malformed requests, credentials),
// each writing nothing. Fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Main School', 'Other School', (w) => ({ service, school, other } = w));
const { libraryResource, category, mediaItem, person, studentClient, productRow, productCount, snapshot } = schoolProductFixtures(() => world.service);
const expectNoWrite = (work: () => Promise<Reply>) => expectNoWriteOf(snapshot, work);
const createProduct = productCreator(() => world.school.admin);

describe('POST /school_products', () => {
  describe('invalid objects: 422 and nothing written', () => {
    it('given no title, then the Rails-style body names title as blank', async () => {
      const res = await expectNoWrite(() => school.admin.post('/school_products', { school_product: { description: 'untitled' } }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { title: ["can't be blank"] }, details: { title: [{ error: 'blank' }] } });
    });

    it('given a blank title, then title is blank', async () => {
      const res = await expectNoWrite(() => school.admin.post('/school_products', { school_product: { title: '   ' } }));
      expect(res.body).toEqual({ errors: { title: ["can't be blank"] }, details: { title: [{ error: 'blank' }] } });
      expect(res.status).toBe(422);
    });

    it.each([
      ['available_time_type time without length and unit', { available_time_type: 'time' }, ['available_time_length', 'available_time_unit']],
      ['available_time_type time without unit', { available_time_type: 'time', available_time_length: 3 }, ['available_time_unit']],
      ['available_time_type time without length', { available_time_type: 'time', available_time_unit: 'weeks' }, ['available_time_length']],
      ['available_time_type date without expire_date', { available_time_type: 'date' }, ['expire_date']],
      ['published without library_resource_id', { published: true }, ['library_resource_id']],
      ['max_attendance_type time without length', { max_attendance_type: 'time' }, ['max_attendance_length']],
      ['max_attendance_type attempts without length', { max_attendance_type: 'attempts' }, ['max_attendance_length']],
    ])('given %s, then the conditional fields are blank', async (_name, fields, blank) => {
      const res = await expectNoWrite(() => school.admin.post('/school_products', { school_product: { title: 'Conditional', ...fields } }));
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual([...blank].sort());
      for (const field of blank) {
        expect(res.body.details[field]).toEqual([{ error: 'blank' }]);
        expect(res.body.errors[field][0]).toMatch(/^can't be blank/);
      }
    });

    it.each([
      [101, 'less_than_or_equal_to'],
      [-1, 'greater_than_or_equal_to'],
    ])('given certification_min_progress %i (outside 0..100), then it is refused', async (value, code) => {
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'Progress', certification_min_progress: value } }),
      );
      expectFieldError(res, 422, 'certification_min_progress', code);
    });

    it('given several problems at once, then each field is reported', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', {
          school_product: { published: true, available_time_type: 'date', certification_min_progress: 200 },
        }),
      );
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['certification_min_progress', 'expire_date', 'library_resource_id', 'title']);
    });

    it('given a library_resource_id of another school, then it must exist in this school', async () => {
      const foreign = await libraryResource(other);
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'Foreign', published: true, library_resource_id: foreign.id } }),
      );
      expectFieldError(res, 422, 'library_resource_id', 'not_found');
    });

    it('given category_ids with one of another school, then nothing is written (not even the own categories)', async () => {
      const own = await category(school);
      const foreign = await category(other);
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'Foreign', category_ids: [own.id, foreign.id] } }),
      );
      expectFieldError(res, 422, 'category_ids', 'not_found');
      expect(res.body.errors.category_ids[0]).toContain(String(foreign.id));
    });

    it('given gallery_media_ids of another school, then 422', async () => {
      const foreign = await mediaItem(other);
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'Foreign', gallery_media_ids: [foreign.id] } }),
      );
      expectFieldError(res, 422, 'gallery_media_ids', 'not_found');
    });

    it('given class_teacher_ids of another school, then 422', async () => {
      const foreign = await person(other, 'Collaborator');
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'Foreign', class_teacher_ids: [foreign.id] } }),
      );
      expectFieldError(res, 422, 'class_teacher_ids', 'not_found');
    });

    it('given ids that name no record at all, then 422 on each field', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', {
          school_product: {
            title: 'Ghosts',
            published: true,
            library_resource_id: 999999,
            category_ids: [999999],
            gallery_media_ids: [999998],
            class_teacher_ids: [999997],
          },
        }),
      );
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['category_ids', 'class_teacher_ids', 'gallery_media_ids', 'library_resource_id']);
    });
  });

  describe('malformed requests: 400 and nothing written', () => {
    it('given invalid JSON, then 400', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', undefined, { raw: '{"school_product": {"title": "x"', headers: { 'content-type': 'application/json' } }),
      );
      expectErrorBody(res, 400);
    });

    it.each([
      ['the resource key is missing', { title: 'No wrapper' }, 'school_product'],
      ['the resource is empty', { school_product: {} }, 'school_product'],
      ['the resource is not a hash', { school_product: 'Just a title' }, 'school_product'],
      ['certification_min_progress is "abc"', { school_product: { title: 'x', certification_min_progress: 'abc' } }, 'certification_min_progress'],
      ['certification_min_progress is 12.5', { school_product: { title: 'x', certification_min_progress: 12.5 } }, 'certification_min_progress'],
      ['available_time_length is "six"', { school_product: { title: 'x', available_time_type: 'time', available_time_length: 'six', available_time_unit: 'days' } }, 'available_time_length'],
      ['published is "maybe"', { school_product: { title: 'x', published: 'maybe' } }, 'published'],
      ['title is a hash', { school_product: { title: { text: 'x' } } }, 'title'],
      ['expire_date is not a date', { school_product: { title: 'x', available_time_type: 'date', expire_date: 'next tuesday' } }, 'expire_date'],
      ['category_ids holds hashes', { school_product: { title: 'x', category_ids: [{ id: 1 }] } }, undefined],
    ])('given %s, then 400', async (_name, body, field) => {
      const res = await expectNoWrite(() => school.admin.post('/school_products', body));
      expectErrorBody(res, 400);
      if (field) expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('given a value outside a closed list (available_time_type, max_attendance_type, available_time_unit), then 422 inclusion naming the field and its values', async () => {
      const product = await createProduct({ title: 'Listed' });
      for (const [field, value, values] of [
        ['available_time_type', 'indeterminate', 'time, date'],
        ['max_attendance_type', 'forever', 'time, attempts'],
        ['available_time_unit', 'hours', 'days, weeks, months, years'],
      ] as const) {
        const res = await expectNoWrite(() => school.admin.post('/school_products', { school_product: { title: 'x', [field]: value } }));
        expectFieldError(res, 422, field, 'inclusion');
        expect(res.body.errors[field][0]).toBe(`is not included in the list (${values})`);
        for (const method of ['PUT', 'PATCH']) {
          const update = await expectNoWrite(() => school.admin.request(method, `/school_products/${product.id}`, { school_product: { [field]: value } }));
          expectFieldError(update, 422, field, 'inclusion');
        }
      }
    });

    it('given a form body with certification_min_progress=abc, then 400', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/school_products', { school_product: { title: 'x', certification_min_progress: 'abc' } }, { encoding: 'form' }),
      );
      expectFieldError(res, 400, 'certification_min_progress');
    });
  });

  describe('credentials', () => {
    it('given no credential, then 401 and nothing written', async () => {
      const res = await expectNoWrite(() => service.anonymous.post('/school_products', { school_product: { title: 'Anon' } }));
      expectErrorBody(res, 401);
      expect(res.body.details.base).toEqual([{ error: 'unauthenticated' }]);
    });

    it('given a wrong token, then 401 and nothing written', async () => {
      const res = await expectNoWrite(() => service.client('not-a-real-token').post('/school_products', { school_product: { title: 'Wrong' } }));
      expectErrorBody(res, 401);
    });

    it('given a student credential, then 403 and nothing written', async () => {
      const student = await studentClient(school);
      const res = await expectNoWrite(() => student.post('/school_products', { school_product: { title: 'By a student' } }));
      expectErrorBody(res, 403);
      expect(res.body.details.base).toEqual([{ error: 'forbidden' }]);
    });

    it('given the Rails form Token token="..." of the admin, then 201', async () => {
      const rails = service.client(null, { authorization: `Token token="${school.admin.token}"` });
      const res = await rails.post('/school_products', { school_product: { title: 'Rails auth' } });
      expect(res.status, res.text).toBe(201);
    });

    it('given a collaborator credential, then the product is created in its school', async () => {
      const collaborator = await person(school, 'Collaborator');
      const client = await service.token('collaborator', school.id, collaborator.id);
      const body = await createProduct({ title: 'By a collaborator' }, client);
      expect((await productRow(body.id)).schoolId).toBe(school.id);
    });

    it('given a platform credential without X-School-Id, then 400 naming the header and nothing written', async () => {
      const res = await expectNoWrite(() => service.platform.post('/school_products', { school_product: { title: 'Platform' } }));
      expectErrorBody(res, 400);
      expect(JSON.stringify(res.body.errors)).toMatch(/X-School-Id/);
    });

    it('given a platform credential with X-School-Id, then the product lands in that school', async () => {
      const before = await productCount(other.id);
      const res = await service.platform.forSchool(other.id).post('/school_products', { school_product: { title: 'Platform in other' } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.school_id).toBe(other.id);
      expect((await productRow(res.body.id)).schoolId).toBe(other.id);
      expect(await productCount(other.id)).toBe(before + 1);
    });
  });
});
