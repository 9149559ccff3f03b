import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '../src/modules/library/library.table.js';
import { media } from '../src/modules/media/media.table.js';
import { schoolProducts, schoolProductTopics } from '../src/modules/school-products/school-product.table.js';
import { expectNoWrite as expectNoWriteOf } from './support/fingerprint.js';
import { schoolProductFixtures } from './support/school-products.fixtures.js';
import { type Client, type Reply, type Service, startTwoSchools, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// REST face of SchoolProduct: GET/POST /school_products, GET/PUT/PATCH/DELETE /school_products/:id.

let service: Service;
let school: TestSchool;
let other: TestSchool;

beforeAll(async () => ({ service, school, other } = await startTwoSchools('Main School', 'Other School')));
afterAll(() => service?.stop());

// Fixtures (no API creates these yet: rows inserted through drizzle) and database reads.
const f = schoolProductFixtures(() => service);
const { libraryResource, category, mediaItem, person, studentClient, productRow, linksOf, productCount, snapshot } = f;
const expectNoWrite = (work: () => Promise<Reply>) => expectNoWriteOf(snapshot, work);

// ---------------------------------------------------------------------------------------------
// Reply helpers.

function parseLinks(header: unknown): Record<string, URLSearchParams> {
  const out: Record<string, URLSearchParams> = {};
  for (const part of String(header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (m) out[m[2]] = new URL(m[1], 'http://x').searchParams;
  }
  return out;
}

async function createProduct(fields: Record<string, unknown>, client: Client = school.admin) {
  const res = await client.post('/school_products', { school_product: fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

// =============================================================================================

describe('POST /school_products', () => {
  it('given every field as JSON, when an admin creates, then 201 with the product, a Location and the rows', async () => {
    const resource = await libraryResource(school);
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const teacher = await person(school, 'Collaborator');

    const res = await school.admin.post('/school_products', {
      school_product: {
        title: 'Data Science',
        description: 'From zero to models',
        subtitle: 'Hands on',
        logo: 'https://cdn.example.com/logo.png',
        video_url: 'https://video.example.com/1',
        video_title: 'Trailer',
        video_description: 'A short trailer',
        published: true,
        hidden: false,
        restricted: true,
        certification: true,
        classes_auto_generation: true,
        certification_min_progress: 80,
        meta_title: 'Data Science course',
        meta_description: 'Learn data science',
        meta_keys: 'data,science',
        available_time_type: 'time',
        available_time_length: 6,
        available_time_unit: 'months',
        library_resource_id: resource.id,
        max_attendance_type: 'attempts',
        max_attendance_length: 3,
        allowed_emails: 'a@example.com,b@example.com',
        category_ids: [c2.id, c1.id],
        gallery_media_ids: [m3.id, m1.id, m2.id],
        class_teacher_ids: [teacher.id],
      },
    });

    expect(res.status, res.text).toBe(201);
    const id = res.body.id;
    expect(typeof id).toBe('number');
    expect(res.headers.location).toBe(`/school_products/${id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      title: 'Data Science',
      description: 'From zero to models',
      subtitle: 'Hands on',
      logo: 'https://cdn.example.com/logo.png',
      video_url: 'https://video.example.com/1',
      video_title: 'Trailer',
      video_description: 'A short trailer',
      published: true,
      hidden: false,
      restricted: true,
      certification: true,
      classes_auto_generation: true,
      certification_min_progress: 80,
      meta_title: 'Data Science course',
      meta_description: 'Learn data science',
      meta_keys: 'data,science',
      available_time_type: 'time',
      available_time_length: 6,
      available_time_unit: 'months',
      library_resource_id: resource.id,
      max_attendance_type: 'attempts',
      max_attendance_length: 3,
      allowed_emails: 'a@example.com,b@example.com',
      gallery_media_ids: [m3.id, m1.id, m2.id],
      class_teacher_ids: [teacher.id],
    });
    expect([...res.body.category_ids].sort((a: number, b: number) => a - b)).toEqual([c1.id, c2.id].sort((a, b) => a - b));
    // REST keys are snake_case.
    for (const key of Object.keys(res.body)) expect(key).toMatch(/^[a-z0-9_]+$/);

    const row = await productRow(id);
    expect(row).toMatchObject({
      schoolId: school.id,
      title: 'Data Science',
      published: true,
      restricted: true,
      certificationMinProgress: 80,
      availableTimeType: 'time',
      availableTimeLength: 6,
      availableTimeUnit: 'months',
      libraryResourceId: resource.id,
      maxAttendanceType: 'attempts',
      maxAttendanceLength: 3,
    });
    expect(await linksOf(id)).toEqual({
      categoryIds: [c1.id, c2.id].sort((a, b) => a - b),
      galleryMediaIds: [m3.id, m1.id, m2.id],
      classTeacherIds: [teacher.id],
    });
  });

  it('given only a title, when created, then the defaults come back and the lists are empty', async () => {
    const body = await createProduct({ title: 'Minimal' });
    expect(body).toMatchObject({
      title: 'Minimal',
      published: false,
      hidden: false,
      restricted: false,
      certification: false,
      classes_auto_generation: false,
      description: null,
      library_resource_id: null,
      available_time_type: null,
      category_ids: [],
      gallery_media_ids: [],
      class_teacher_ids: [],
    });
  });

  it('given available_time_type date with an expire_date, when created, then the date is stored', async () => {
    const body = await createProduct({ title: 'Dated', available_time_type: 'date', expire_date: '2026-12-31T23:59:59Z' });
    expect(body.available_time_type).toBe('date');
    expect(new Date(body.expire_date).toISOString()).toBe('2026-12-31T23:59:59.000Z');
    expect((await productRow(body.id)).expireDate?.toISOString()).toBe('2026-12-31T23:59:59.000Z');
  });

  it('given max_attendance_type time with a length, when created, then both are stored', async () => {
    const body = await createProduct({ title: 'Timed attendance', max_attendance_type: 'time', max_attendance_length: 90 });
    expect(body).toMatchObject({ max_attendance_type: 'time', max_attendance_length: 90 });
  });

  it.each([0, 100])('given certification_min_progress %i (a bound of 0..100), when created, then it is accepted', async (value) => {
    const body = await createProduct({ title: `Progress ${value}`, certification_min_progress: value });
    expect(body.certification_min_progress).toBe(value);
  });

  it('given a form-urlencoded body with bracket names, when created, then strings become typed values and lists keep their order', async () => {
    const resource = await libraryResource(school);
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const teacher = await person(school, 'Collaborator');
    const raw = [
      'school_product[title]=Form+product',
      'school_product[published]=true',
      'school_product[hidden]=0',
      `school_product[library_resource_id]=${resource.id}`,
      'school_product[certification_min_progress]=75',
      'school_product[available_time_type]=time',
      'school_product[available_time_length]=30',
      'school_product[available_time_unit]=days',
      `school_product[category_ids][]=${c1.id}`,
      `school_product[category_ids][]=${c2.id}`,
      `school_product[gallery_media_ids][]=${m2.id}`,
      `school_product[gallery_media_ids][]=${m1.id}`,
      `school_product[class_teacher_ids][]=${teacher.id}`,
    ].join('&');

    const res = await school.admin.post('/school_products', undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/school_products/${res.body.id}`);
    expect(res.body).toMatchObject({
      title: 'Form product',
      published: true,
      hidden: false,
      library_resource_id: resource.id,
      certification_min_progress: 75,
      available_time_type: 'time',
      available_time_length: 30,
      available_time_unit: 'days',
      gallery_media_ids: [m2.id, m1.id],
      class_teacher_ids: [teacher.id],
    });
    expect(await linksOf(res.body.id)).toEqual({
      categoryIds: [c1.id, c2.id].sort((a, b) => a - b),
      galleryMediaIds: [m2.id, m1.id],
      classTeacherIds: [teacher.id],
    });
  });

  it('given a multipart body with bracket names, when created, then 201 and the lists are stored', async () => {
    const c1 = await category(school);
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const res = await school.admin.post(
      '/school_products',
      {
        school_product: {
          title: 'Multipart product',
          restricted: 'true',
          certification_min_progress: '60',
          category_ids: [c1.id],
          gallery_media_ids: [m2.id, m3.id, m1.id],
        },
      },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Multipart product',
      restricted: true,
      certification_min_progress: 60,
      category_ids: [c1.id],
      gallery_media_ids: [m2.id, m3.id, m1.id],
    });
    expect((await linksOf(res.body.id)).galleryMediaIds).toEqual([m2.id, m3.id, m1.id]);
  });

  it('given fields that are not writable (id, school_id, timestamps, nested objects), when created, then they are ignored', async () => {
    const res = await school.admin.post('/school_products', {
      school_product: {
        id: 424242,
        school_id: other.id,
        created_at: '2000-01-01T00:00:00Z',
        updated_at: '2000-01-01T00:00:00Z',
        topics: [{ title: 'x' }],
        school: { id: other.id },
        title: 'Strong params',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).not.toBe(424242);
    expect(res.body.school_id).toBe(school.id);
    expect(new Date(res.body.created_at).getUTCFullYear()).not.toBe(2000);
    expect((await productRow(res.body.id)).schoolId).toBe(school.id);
    expect(await productRow(424242)).toBeUndefined();
  });

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

// =============================================================================================

describe('GET /school_products/:id', () => {
  it('given a product with links, when shown, then 200 with its fields and lists', async () => {
    const c = await category(school);
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const t = await person(school, 'Collaborator');
    const created = await createProduct({ title: 'Shown', category_ids: [c.id], gallery_media_ids: [m2.id, m1.id], class_teacher_ids: [t.id] });

    const res = await school.admin.get(`/school_products/${created.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expect(res.body).toMatchObject({ id: created.id, title: 'Shown', category_ids: [c.id], gallery_media_ids: [m2.id, m1.id], class_teacher_ids: [t.id] });
  });

  it.each(['/v1/school_products/:id', '/school_products/:id.json', '/school_products/:id/', '/api/school_products/:id'])(
    'given the path variant %s, then the same product',
    async (path) => {
      const created = await createProduct({ title: 'Variant' });
      const res = await school.admin.get(path.replace(':id', String(created.id)));
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(created.id);
    },
  );

  it('given a student of the school, then it may read the product', async () => {
    const created = await createProduct({ title: 'Readable' });
    const res = await (await studentClient(school)).get(`/school_products/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Readable');
  });

  it("given another school's product, then 404 not_found for the admin and the student", async () => {
    const foreign = await createProduct({ title: 'Foreign' }, other.admin);
    for (const client of [school.admin, await studentClient(school)]) {
      const res = await client.get(`/school_products/${foreign.id}`);
      expectErrorBody(res, 404);
      expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    }
  });

  it.each(['abc', '12abc', '999999', '0', '-1', '99999999999'])('given the id %s, then 404 not_found', async (id) => {
    const res = await school.admin.get(`/school_products/${id}`);
    expectErrorBody(res, 404);
    expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
  });

  it('given no credential or a wrong token, then 401', async () => {
    const created = await createProduct({ title: 'Private' });
    expectErrorBody(await service.anonymous.get(`/school_products/${created.id}`), 401);
    expectErrorBody(await service.client('nope').get(`/school_products/${created.id}`), 401);
    expectErrorBody(await service.client(null, { authorization: 'Basic dXNlcjpwYXNz' }).get(`/school_products/${created.id}`), 401);
  });
});

// =============================================================================================

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

// =============================================================================================

describe('DELETE /school_products/:id', () => {
  it('given a product with topics and links, when deleted, then 204 with no body, its rows are gone and it is 404 after', async () => {
    const c = await category(school);
    const m = await mediaItem(school);
    const created = await createProduct({ title: 'Doomed', category_ids: [c.id], gallery_media_ids: [m.id] });
    const topic = await school.admin.post(`/school_products/${created.id}/school_product_topics`, {
      school_product_topic: { title: 'T', description: 'D' },
    });
    expect(topic.status).toBe(201);

    const res = await school.admin.delete(`/school_products/${created.id}`);

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await productRow(created.id)).toBeUndefined();
    expect(await linksOf(created.id)).toEqual({ categoryIds: [], galleryMediaIds: [], classTeacherIds: [] });
    expect(await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.schoolProductId, created.id))).toEqual([]);
    // The linked category and media themselves stay.
    expect(await service.db.select().from(categories).where(eq(categories.id, c.id))).toHaveLength(1);
    expect(await service.db.select().from(media).where(eq(media.id, m.id))).toHaveLength(1);

    expectErrorBody(await school.admin.get(`/school_products/${created.id}`), 404);
    const again = await school.admin.delete(`/school_products/${created.id}`);
    expectErrorBody(again, 404);
    expect(again.body.details.base).toEqual([{ error: 'not_found' }]);
  });

  it('given the /v1 prefix, then it deletes too', async () => {
    const created = await createProduct({ title: 'Doomed v1' });
    expect((await school.admin.delete(`/v1/school_products/${created.id}`)).status).toBe(204);
    expect(await productRow(created.id)).toBeUndefined();
  });

  it("given another school's product, then 404 and the row stays", async () => {
    const foreign = await createProduct({ title: 'Not yours' }, other.admin);
    const res = await expectNoWrite(() => school.admin.delete(`/school_products/${foreign.id}`));
    expectErrorBody(res, 404);
    expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    expect(await productRow(foreign.id)).toBeDefined();
  });

  it.each(['abc', '999999'])('given the id %s, then 404', async (id) => {
    const res = await expectNoWrite(() => school.admin.delete(`/school_products/${id}`));
    expectErrorBody(res, 404);
  });

  it('given no credential, a wrong token or a student, then 401, 401, 403 and the row stays', async () => {
    const created = await createProduct({ title: 'Protected' });
    const student = await studentClient(school);
    expectErrorBody(await expectNoWrite(() => service.anonymous.delete(`/school_products/${created.id}`)), 401);
    expectErrorBody(await expectNoWrite(() => service.client('wrong').delete(`/school_products/${created.id}`)), 401);
    expectErrorBody(await expectNoWrite(() => student.delete(`/school_products/${created.id}`)), 403);
    expect(await productRow(created.id)).toBeDefined();
  });

  it('given a platform credential, then without X-School-Id 400 and the row stays; with it, 204', async () => {
    const created = await createProduct({ title: 'Platform doomed' });
    const unnamed = await expectNoWrite(() => service.platform.delete(`/school_products/${created.id}`));
    expectErrorBody(unnamed, 400);
    expect(JSON.stringify(unnamed.body.errors)).toMatch(/X-School-Id/);
    expect((await service.platform.forSchool(school.id).delete(`/school_products/${created.id}`)).status).toBe(204);
    expect(await productRow(created.id)).toBeUndefined();
  });
});

// =============================================================================================

describe('GET /school_products', () => {
  it("given two schools with products, when each admin lists, then each sees only its own school's products, in id order", async () => {
    const a = await service.school('List A');
    const b = await service.school('List B');
    const a1 = await createProduct({ title: 'A1' }, a.admin);
    const b1 = await createProduct({ title: 'B1' }, b.admin);
    const a2 = await createProduct({ title: 'A2', published: false }, a.admin);

    const res = await a.admin.get('/school_products');

    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p: any) => p.id)).toEqual([a1.id, a2.id]);
    expect(res.body[0]).toEqual(a1);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['x-page']).toBeDefined();
    expect(res.headers['x-per-page']).toBeDefined();
    expect(res.headers.link).toBeDefined();

    const resB = await b.admin.get('/school_products');
    expect(resB.body.map((p: any) => p.id)).toEqual([b1.id]);

    const student = await studentClient(a);
    const resStudent = await student.get('/school_products');
    expect(resStudent.status).toBe(200);
    expect(resStudent.body.map((p: any) => p.id)).toEqual([a1.id, a2.id]);
  });

  it('given a school without products, then an empty array', async () => {
    const empty = await service.school('Empty');
    const res = await empty.admin.get('/school_products');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('given no credential or a wrong token, then 401', async () => {
    expectErrorBody(await service.anonymous.get('/school_products'), 401);
    expectErrorBody(await service.client('wrong').get('/school_products'), 401);
  });

  describe('pagination', () => {
    let catalogue: TestSchool;
    let ids: number[];
    const TOTAL = 105;

    beforeAll(async () => {
      catalogue = await service.school('Catalogue');
      const rows = await service.db
        .insert(schoolProducts)
        .values(Array.from({ length: TOTAL }, (_, i) => ({ schoolId: catalogue.id, title: `P${String(i + 1).padStart(3, '0')}` })))
        .returning({ id: schoolProducts.id });
      ids = rows.map((r) => r.id).sort((x, y) => x - y);
    });

    it('given page=2&per_page=10, then the second ten with X-Total-Count, X-Page, X-Per-Page and Link', async () => {
      const res = await catalogue.admin.get('/school_products?page=2&per_page=10');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(10, 20));
      expect(res.body[0].title).toBe('P011');
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
      expect(res.headers['x-page']).toBe('2');
      expect(res.headers['x-per-page']).toBe('10');
      const links = parseLinks(res.headers.link);
      expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
      expect(links.first.get('page')).toBe('1');
      expect(links.prev.get('page')).toBe('1');
      expect(links.next.get('page')).toBe('3');
      expect(links.last.get('page')).toBe('11');
      for (const rel of Object.values(links)) expect(rel.get('per_page')).toBe('10');
    });

    it('given page=1 alone, then per_page defaults to 10 and there is no prev link', async () => {
      const res = await catalogue.admin.get('/school_products?page=1');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(0, 10));
      expect(res.headers['x-per-page']).toBe('10');
      const links = parseLinks(res.headers.link);
      expect(links.prev).toBeUndefined();
      expect(links.next.get('page')).toBe('2');
    });

    it('given the last page, then the remainder and no next link', async () => {
      const res = await catalogue.admin.get('/school_products?page=11&per_page=10');
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(100));
      const links = parseLinks(res.headers.link);
      expect(links.next).toBeUndefined();
      expect(links.prev.get('page')).toBe('10');
    });

    it('given per_page=100 (the maximum) and page=2, then the last five', async () => {
      const res = await catalogue.admin.get('/school_products?page=2&per_page=100');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids.slice(100));
      expect(res.headers['x-per-page']).toBe('100');
    });

    it('given a page past the end, then an empty array', async () => {
      const res = await catalogue.admin.get('/school_products?page=50&per_page=10');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
    });

    it.each([
      ['per_page=101&page=1', 'per_page'],
      ['per_page=1000&page=2', 'per_page'],
      ['per_page=0&page=1', 'per_page'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1&per_page=ten', 'per_page'],
    ])('given %s, then 400 (never a silent cut)', async (query, field) => {
      const res = await catalogue.admin.get(`/school_products?${query}`);
      expectFieldError(res, 400, field);
    });

    it('given per_page without page, then it is ignored: the whole list', async () => {
      const res = await catalogue.admin.get('/school_products?per_page=5');
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.id)).toEqual(ids);
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
    });

    it('given more than 100 products and no page, then the whole list comes back, streamed page by page', async () => {
      const res = await catalogue.admin.get('/school_products');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toHaveLength(TOTAL);
      expect(res.body.map((p: any) => p.id)).toEqual(ids);
      expect(new Set(res.body.map((p: any) => p.id)).size).toBe(TOTAL);
      expect(res.body[TOTAL - 1]).toMatchObject({ title: 'P105', school_id: catalogue.id, category_ids: [] });
      expect(res.headers['x-total-count']).toBe(String(TOTAL));
      expect(res.headers['x-page']).toBeDefined();
      expect(res.headers['x-per-page']).toBeDefined();
      expect(res.headers.link).toBeDefined();
    });
  });
});
