import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectNoWrite, type ExtraFixtures, fixtures, ids } from './support/extra-contents.fixtures.js';
import { courses, lessons } from '../src/modules/courses/course.table.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of ExtraContent: the spec's five rows (GET/POST /extra_contents, GET/PUT/PATCH/DELETE
// /extra_content/:id) and their plural twins (/extra_contents/:id), every body encoding, the rules
// of the ExtraContent body, tenancy and credentials.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ExtraFixtures;
let student: Client;
/** Rows of the school every test may attach to. */
let lesson: { id: number };
let handout: { id: number };

twoSchools('Extra Contents School', 'Extra Contents Other', async (w) => {
  ({ service, school, other } = w);
  f = fixtures(service);
  student = await f.studentClient(school);
  lesson = await f.lesson(school);
  handout = await f.media(school);
});

/** A product of the school whose id names no row of `table` in the school (ids of different tables may coincide). */
async function productWhoseIdIsNo(table: typeof lessons | typeof courses) {
  for (;;) {
    const product = await f.product(school);
    const clash = await service.db.select({ id: table.id }).from(table).where(and(eq(table.id, product.id), eq(table.schoolId, school.id)));
    if (!clash.length) return product;
  }
}

const valid = (fields: Record<string, unknown> = {}) => ({
  resource_id: lesson.id,
  media_id: handout.id,
  order: 1,
  downloadable: true,
  available: true,
  ...fields,
});

async function create(fields: Record<string, unknown> = {}, s: TestSchool = school) {
  const res = await s.admin.post('/extra_contents', { extra_content: fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A valid extra content of `s` (its own lesson and media). */
async function createIn(s: TestSchool, fields: Record<string, unknown> = {}) {
  return create({ resource_id: (await f.lesson(s)).id, media_id: (await f.media(s)).id, order: 0, downloadable: false, available: true, ...fields }, s);
}

describe('POST /extra_contents', () => {
  it('given every field as JSON, then 201 with the extra content and a Location naming its show path', async () => {
    const res = await school.admin.post('/extra_contents', { extra_content: valid({ resource_type: 'Lesson', title: 'Slides (PDF)', downloadable: false }) });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/extra_content/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      resource_type: 'Lesson',
      resource_id: lesson.id,
      media_id: handout.id,
      order: 1,
      downloadable: false,
      available: true,
      title: 'Slides (PDF)',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await f.extraRow(res.body.id)).toMatchObject({
      schoolId: school.id,
      resourceType: 'Lesson',
      resourceId: lesson.id,
      mediaId: handout.id,
      order: 1,
      downloadable: false,
      available: true,
      title: 'Slides (PDF)',
    });
  });

  it('given no resource_type and no title, then the resource is a Lesson and the title null', async () => {
    const body = await create(valid());
    expect(body).toMatchObject({ resource_type: 'Lesson', resource_id: lesson.id, title: null });
  });

  it.each([
    ['school_product', 'SchoolProduct'],
    ['SchoolProduct', 'SchoolProduct'],
    ['schoolproduct', 'SchoolProduct'],
    ['lesson', 'Lesson'],
    ['course', 'Course'],
    ['Course', 'Course'],
  ])('given resource_type %s, then it is stored as %s', async (spelling, stored) => {
    const resource = stored === 'SchoolProduct' ? await f.product(school) : stored === 'Course' ? await f.course(school) : await f.lesson(school);
    const body = await create(valid({ resource_type: spelling, resource_id: resource.id }));
    expect(body).toMatchObject({ resource_type: stored, resource_id: resource.id });
    expect((await f.extraRow(body.id)).resourceType).toBe(stored);
  });

  it('given a form-urlencoded body with bracket names, then the values are typed', async () => {
    const product = await f.product(school);
    const raw = [
      'extra_content[resource_type]=school_product',
      `extra_content[resource_id]=${product.id}`,
      `extra_content[media_id]=${handout.id}`,
      'extra_content[order]=7',
      'extra_content[downloadable]=false',
      'extra_content[available]=true',
      'extra_content[title]=Price+list',
    ].join('&');
    const res = await school.admin.post('/extra_contents', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ resource_type: 'SchoolProduct', resource_id: product.id, media_id: handout.id, order: 7, downloadable: false, available: true, title: 'Price list' });
  });

  it('given a form body built by a client library, then 201', async () => {
    const res = await school.admin.post('/extra_contents', { extra_content: valid({ order: 3, downloadable: 'true' }) }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ order: 3, downloadable: true });
  });

  it('given a multipart body, then 201', async () => {
    const course = await f.course(school);
    const res = await school.admin.post(
      '/extra_contents',
      { extra_content: { resource_type: 'course', resource_id: String(course.id), media_id: String(handout.id), order: '0', downloadable: 'true', available: 'false' } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ resource_type: 'Course', resource_id: course.id, order: 0, downloadable: true, available: false });
  });

  it('answers under /v1 and with a .json suffix too', async () => {
    const res = await school.admin.post('/v1/extra_contents.json', { extra_content: valid() });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/extra_content/${res.body.id}`);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it('given no media_id, then the reply names it in the Rails shape', async () => {
      const { media_id: _m, ...fields } = valid();
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: fields }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { media_id: ["can't be blank"] }, details: { media_id: [{ error: 'blank' }] } });
    });

    it.each([['resource_id'], ['media_id'], ['order'], ['downloadable'], ['available']])('given no %s, then it is blank', async (field) => {
      const fields: Record<string, unknown> = valid();
      delete fields[field];
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: fields }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ [field]: [{ error: 'blank' }] });
      expect(res.body.errors[field]).toEqual(["can't be blank"]);
    });

    it('given only a title, then every required field is blank at once', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: { title: 'Alone' } }));
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.details).sort()).toEqual(['available', 'downloadable', 'media_id', 'order', 'resource_id']);
    });

    it('given empty strings from a form, then they are blank', async () => {
      const res = await expectNoWrite(f, () =>
        school.admin.post('/extra_contents', { extra_content: valid({ resource_id: '', media_id: '' }) }, { encoding: 'form' }),
      );
      expectFieldError(res, 422, 'resource_id', 'blank');
      expectFieldError(res, 422, 'media_id', 'blank');
    });

    it('given a resource_type outside the list, then resource_type is not included', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid({ resource_type: 'Forum' }) }));
      expectFieldError(res, 422, 'resource_type', 'inclusion');
      expect(res.body.errors.resource_type[0]).toContain('Lesson, Course, SchoolProduct');
    });

    it.each([
      ["another school's lesson", async () => ({ resource_id: (await f.lesson(other)).id })],
      ["another school's course", async () => ({ resource_type: 'Course', resource_id: (await f.course(other)).id })],
      ["another school's product", async () => ({ resource_type: 'school_product', resource_id: (await f.product(other)).id })],
      ['no such lesson', async () => ({ resource_id: 999999 })],
      ['not an id', async () => ({ resource_id: 'abc' })],
    ])('given a resource that is %s, then resource_id must exist in this school', async (_name, resource) => {
      const fields = await resource();
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid(fields) }));
      expectFieldError(res, 422, 'resource_id', 'not_found');
      expect(Object.keys(res.body.details)).toEqual(['resource_id']);
    });

    it('given a product id named as a Lesson, then it is looked for among the lessons', async () => {
      const product = await productWhoseIdIsNo(lessons);
      const res = await expectNoWrite(f, () =>
        school.admin.post('/extra_contents', { extra_content: valid({ resource_type: 'Lesson', resource_id: product.id }) }),
      );
      expectFieldError(res, 422, 'resource_id', 'not_found');
      expect((await create(valid({ resource_type: 'SchoolProduct', resource_id: product.id }))).resource_id).toBe(product.id);
    });

    it("given another school's media, then media_id must exist in this school", async () => {
      const foreign = await f.media(other);
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid({ media_id: foreign.id }) }));
      expectFieldError(res, 422, 'media_id', 'not_found');
      expectFieldError(await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid({ media_id: 999999 }) })), 422, 'media_id', 'not_found');
    });

    it('given a negative order, then order must be 0 or more', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid({ order: -1 }) }));
      expectFieldError(res, 422, 'order', 'greater_than_or_equal_to');
      expect(res.body.errors.order).toEqual(['must be greater than or equal to 0']);
    });

    it('given several problems, then each is reported', async () => {
      const foreign = await f.media(other);
      const res = await expectNoWrite(f, () =>
        school.admin.post('/extra_contents', { extra_content: { resource_type: 'Video', media_id: foreign.id, order: -5 } }),
      );
      expectErrorBody(res, 422);
      expect(res.body.details).toMatchObject({
        resource_type: [{ error: 'inclusion' }],
        media_id: [{ error: 'not_found' }],
        order: [{ error: 'greater_than_or_equal_to' }],
        resource_id: [{ error: 'blank' }],
      });
    });
  });

  describe('malformed requests: 400 and nothing written', () => {
    it.each([
      ['an order that is no integer', { order: 'abc' }, 'order'],
      ['an order that is a fraction', { order: 1.5 }, 'order'],
      ['a downloadable that is no boolean', { downloadable: 'maybe' }, 'downloadable'],
      ['an available that is a hash', { available: { a: 1 } }, 'available'],
    ])('given %s, then 400 names the field', async (_name, fields, field) => {
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid(fields) }));
      expectFieldError(res, 400, field);
    });

    it('given an order that is no integer in a form body, then 400', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/extra_contents', { extra_content: valid({ order: 'abc' }) }, { encoding: 'form' }));
      expectFieldError(res, 400, 'order');
    });

    it('given no extra_content hash, then 400 names it', async () => {
      expectFieldError(await expectNoWrite(f, () => school.admin.post('/extra_contents', valid())), 400, 'extra_content');
    });

    it('given broken JSON, then 400', async () => {
      const res = await expectNoWrite(f, () =>
        school.admin.post('/extra_contents', undefined, { raw: '{"extra_content": {', headers: { 'content-type': 'application/json' } }),
      );
      expectErrorBody(res, 400);
    });
  });

  it('given a student credential 403, none 401, and nothing written; a collaborator may create', async () => {
    expectErrorBody(await expectNoWrite(f, () => student.post('/extra_contents', { extra_content: valid() })), 403);
    expectErrorBody(await expectNoWrite(f, () => service.anonymous.post('/extra_contents', { extra_content: valid() })), 401);
    const collaborator = await service.token('collaborator', school.id, (await f.person(school, 'Collaborator')).id);
    expect((await collaborator.post('/extra_contents', { extra_content: valid() })).status).toBe(201);
  });

  it('given a platform credential naming the school, then it creates there', async () => {
    const res = await service.platform.forSchool(school.id).post('/extra_contents', { extra_content: valid() });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBe(school.id);
  });
});

describe('GET /extra_contents', () => {
  it("lists the school's extra contents in id order, never another school's", async () => {
    const a = await create(valid());
    const b = await create(valid({ order: 0 }));
    const theirs = await createIn(other);
    const res = await school.admin.get('/extra_contents');
    const listed = ids(res);
    expect(listed).toEqual([...listed].sort((x, y) => x - y));
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(listed).not.toContain(theirs.id);
    expect(res.headers['x-total-count']).toBe(String(listed.length));
    expect(res.body.find((e: any) => e.id === a.id)).toEqual(a);
  });

  it('filters by resource_type (any spelling) and resource_id, and by media_id', async () => {
    const product = await f.product(school);
    const course = await f.course(school);
    const sheet = await f.media(school);
    const onProduct = await create(valid({ resource_type: 'SchoolProduct', resource_id: product.id, media_id: sheet.id }));
    const onCourse = await create(valid({ resource_type: 'Course', resource_id: course.id, media_id: sheet.id }));
    const onLesson = await create(valid());

    expect(ids(await school.admin.get(`/extra_contents?resource_type=school_product&resource_id=${product.id}`))).toEqual([onProduct.id]);
    expect(ids(await school.admin.get(`/extra_contents?resource_type=Course&resource_id=${course.id}`))).toEqual([onCourse.id]);
    expect(ids(await school.admin.get(`/extra_contents?media_id=${sheet.id}`))).toEqual([onProduct.id, onCourse.id]);
    const lessons = ids(await school.admin.get('/extra_contents?resource_type=lesson'));
    expect(lessons).toContain(onLesson.id);
    expect(lessons).not.toContain(onProduct.id);
    expect(lessons).not.toContain(onCourse.id);
    // A filter that names nothing lists nothing.
    expect(ids(await school.admin.get('/extra_contents?resource_type=Forum'))).toEqual([]);
    expect(ids(await school.admin.get('/extra_contents?resource_id=999999'))).toEqual([]);
    // Filters also come in a GET body, as some clients send them.
    expect(ids(await school.admin.request('GET', '/extra_contents', { media_id: sheet.id }))).toEqual([onProduct.id, onCourse.id]);
  });

  it('pages with page and per_page', async () => {
    const sheet = await f.media(school);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await create(valid({ media_id: sheet.id }))).id);
    const res = await school.admin.get(`/extra_contents?media_id=${sheet.id}&page=2&per_page=2`);
    expect(ids(res)).toEqual([made[2]]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers['x-page']).toBe('2');
    expectErrorBody(await school.admin.get('/extra_contents?page=1&per_page=101'), 400);
  });

  it('a student credential is refused (403), no credential 401', async () => {
    expectErrorBody(await student.get('/extra_contents'), 403);
    expectErrorBody(await service.anonymous.get('/extra_contents'), 401);
  });
});

describe.each([['/extra_content'], ['/extra_contents']])('GET %s/:id', (base) => {
  it("shows one; another school's and a missing one are 404", async () => {
    const mine = await create(valid({ title: 'Show me' }));
    const res = await school.admin.get(`${base}/${mine.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(mine);
    const theirs = await createIn(other);
    expectNotFound(await school.admin.get(`${base}/${theirs.id}`));
    expectNotFound(await school.admin.get(`${base}/999999`));
    expectNotFound(await school.admin.get(`${base}/abc`));
  });

  it('a student credential is refused (403), no credential 401', async () => {
    const mine = await create(valid());
    expectErrorBody(await student.get(`${base}/${mine.id}`), 403);
    expectErrorBody(await service.anonymous.get(`${base}/${mine.id}`), 401);
  });
});

describe.each([
  ['PUT', '/extra_content'],
  ['PATCH', '/extra_content'],
  ['PUT', '/extra_contents'],
  ['PATCH', '/extra_contents'],
])('%s %s/:id', (method, base) => {
  const send = (client: Client, id: number, body: unknown, encoding?: 'json' | 'form' | 'multipart') =>
    client.request(method, `${base}/${id}`, body, { encoding });

  it('changes the given fields, keeps the others, and replies 200 with the shown resource and a Location', async () => {
    const created = await create(valid({ title: 'Before', order: 4 }));
    const res = await send(school.admin, created.id, { extra_content: { title: 'After', available: false } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/extra_content/${created.id}`);
    expect(res.body).toMatchObject({ id: created.id, title: 'After', available: false, order: 4, downloadable: true, resource_id: lesson.id });
    expect(await f.extraRow(created.id)).toMatchObject({ title: 'After', available: false, order: 4 });
    expect((await school.admin.get(`/extra_content/${created.id}`)).body).toEqual(res.body);
  });

  it('accepts a fetched object sent back whole (id, school_id and timestamps are ignored)', async () => {
    const created = await create(valid());
    const fetched = (await school.admin.get(`/extra_content/${created.id}`)).body;
    const res = await send(school.admin, created.id, { extra_content: { ...fetched, id: 1, school_id: other.id, order: 9 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, school_id: school.id, order: 9 });
  });

  it('moves the extra content to another resource of the school, in a form body', async () => {
    const created = await create(valid());
    const course = await f.course(school);
    const res = await send(school.admin, created.id, { extra_content: { resource_type: 'course', resource_id: course.id, order: '2' } }, 'form');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ resource_type: 'Course', resource_id: course.id, order: 2 });
  });

  it('changes the media in a multipart body', async () => {
    const created = await create(valid());
    const sheet = await f.media(school);
    const res = await send(school.admin, created.id, { extra_content: { media_id: String(sheet.id), downloadable: 'false' } }, 'multipart');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ media_id: sheet.id, downloadable: false });
  });

  it('checks the resource and media as they will be; nothing is written when refused', async () => {
    const created = await create(valid());
    // Only the id changes: it is looked for among the stored type (Lesson).
    const foreignLesson = await f.lesson(other);
    expectFieldError(await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { resource_id: foreignLesson.id } })), 422, 'resource_id', 'not_found');
    // Only the type changes: the stored id must name a row of the new type.
    const product = await productWhoseIdIsNo(courses);
    const onProduct = await create(valid({ resource_type: 'SchoolProduct', resource_id: product.id }));
    expectFieldError(await expectNoWrite(f, () => send(school.admin, onProduct.id, { extra_content: { resource_type: 'Course' } })), 422, 'resource_id', 'not_found');
    expectFieldError(await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { resource_type: 'Path' } })), 422, 'resource_type', 'inclusion');
    const foreignMedia = await f.media(other);
    expectFieldError(await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { media_id: foreignMedia.id } })), 422, 'media_id', 'not_found');
    expectFieldError(await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { order: -3 } })), 422, 'order', 'greater_than_or_equal_to');
    expectFieldError(await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { order: 'abc' } })), 400, 'order');
  });

  it.each([['resource_id'], ['media_id'], ['order'], ['downloadable'], ['available'], ['resource_type']])(
    'given %s cleared, then it is blank and nothing is written',
    async (field) => {
      const created = await create(valid());
      const res = await expectNoWrite(f, () => send(school.admin, created.id, { extra_content: { [field]: null } }));
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ [field]: [{ error: 'blank' }] });
    },
  );

  it("another school's extra content is 404 and untouched; a missing one is 404", async () => {
    const theirs = await createIn(other);
    expectNotFound(await expectNoWrite(f, () => send(school.admin, theirs.id, { extra_content: { title: 'Mine now' } })));
    expectNotFound(await expectNoWrite(f, () => send(school.admin, 999999, { extra_content: { title: 'Nobody' } })));
  });

  it('a student credential is refused (403), no credential 401, and nothing is written', async () => {
    const created = await create(valid());
    expectErrorBody(await expectNoWrite(f, () => send(student, created.id, { extra_content: { title: 'Student' } })), 403);
    expectErrorBody(await expectNoWrite(f, () => send(service.anonymous, created.id, { extra_content: { title: 'Anyone' } })), 401);
  });
});

describe.each([['/extra_content'], ['/extra_contents']])('DELETE %s/:id', (base) => {
  it("deletes with 204 and no body; another school's is 404 and stays", async () => {
    const mine = await create(valid());
    const res = await school.admin.delete(`${base}/${mine.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await f.extraRow(mine.id)).toBeUndefined();
    expectNotFound(await school.admin.get(`/extra_content/${mine.id}`));
    expectNotFound(await school.admin.delete(`${base}/${mine.id}`));
    const theirs = await createIn(other);
    expectNotFound(await expectNoWrite(f, () => school.admin.delete(`${base}/${theirs.id}`)));
    expect(await f.extraRow(theirs.id)).toBeDefined();
  });

  it('a student credential is refused (403), no credential 401, and the row stays', async () => {
    const mine = await create(valid());
    expectErrorBody(await expectNoWrite(f, () => student.delete(`${base}/${mine.id}`)), 403);
    expectErrorBody(await expectNoWrite(f, () => service.anonymous.delete(`${base}/${mine.id}`)), 401);
    expect(await f.extraRow(mine.id)).toBeDefined();
  });
});
