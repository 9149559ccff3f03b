import { describe, expect, it } from 'vitest';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: POST /school_products, the product and its links as given (refusals
// in rest.create-refused.test.ts). Fixtures: test/support/school-products.fixtures.ts.

let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Main School', 'Other School', (w) => ({ school, other } = w));
const { libraryResource, category, mediaItem, person, productRow, linksOf } = schoolProductFixtures(() => world.service);
const createProduct = productCreator(() => world.school.admin);

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
});
