import { describe, expect, it } from 'vitest';
import { ids } from './support/courses.fixtures.js';
import { mediaFixtures } from './support/media.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// The media of a product (its lessons' and its extra contents') and what an enrollment's student
// may see of them (released lessons, available extra contents, nothing unless active).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof mediaFixtures>;

twoSchools('Scoped Media School', 'Other Scoped Media School', (w) => {
  ({ service, school, other } = w);
  f = mediaFixtures(service);
});

/** A product whose content shows media in every way there is, and media it does not show. */
async function scene() {
  const c = await f.catalogue(school);
  const m = {
    released: await f.create(school),
    unreleased: await f.create(school),
    unavailableLesson: await f.create(school),
    ofProduct: await f.create(school),
    ofCourse: await f.create(school),
    ofLesson: await f.create(school),
    hiddenExtra: await f.create(school),
    elsewhere: await f.create(school),
  };
  const lesson = await c.lesson(m.released.id);
  await c.lesson(m.unreleased.id, { release_after: 7 });
  await c.lesson(m.unavailableLesson.id, { available: false });
  await f.extraContent(school, 'SchoolProduct', c.product.id, m.ofProduct.id);
  await f.extraContent(school, 'Course', c.course.id, m.ofCourse.id);
  await f.extraContent(school, 'Lesson', lesson.id, m.ofLesson.id);
  await f.extraContent(school, 'Lesson', lesson.id, m.hiddenExtra.id, false);
  // The same kinds of link to another product do not count.
  const elsewhere = await f.catalogue(school);
  await elsewhere.lesson(m.elsewhere.id);
  await f.extraContent(school, 'SchoolProduct', elsewhere.product.id, m.elsewhere.id);
  return { ...c, m };
}

describe('GET /school_products/:school_product_id/media', () => {
  it("lists the media of the product's lessons and extra contents, released or not, and nothing else", async () => {
    const { product, m } = await scene();
    const listed = ids(await school.admin.get(`/school_products/${product.id}/media`));
    expect(listed.sort((a, b) => a - b)).toEqual(
      [m.released, m.unreleased, m.unavailableLesson, m.ofProduct, m.ofCourse, m.ofLesson, m.hiddenExtra].map((x) => x.id).sort((a, b) => a - b),
    );
  });

  it('shows a media of the product, and 404 for one outside it', async () => {
    const { product, m } = await scene();
    const shown = await school.admin.get(`/school_products/${product.id}/media/${m.ofCourse.id}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.id).toBe(m.ofCourse.id);
    expectNotFound(await school.admin.get(`/school_products/${product.id}/media/${m.elsewhere.id}`));
  });

  it("given another school's product, then 404", async () => {
    const foreign = await f.catalogue(other);
    expectNotFound(await school.admin.get(`/school_products/${foreign.product.id}/media`));
  });
});

describe('GET /enrollments/:enrollment_id/media', () => {
  it('lists only released lessons\' media and available extra contents', async () => {
    const { product, m } = await scene();
    const enrollment = await f.enrollment(school, product.id);
    const expected = [m.released, m.ofProduct, m.ofCourse, m.ofLesson].map((x) => x.id).sort((a, b) => a - b);
    expect(ids(await school.admin.get(`/enrollments/${enrollment.id}/media`)).sort((a, b) => a - b)).toEqual(expected);
    // The student reads the same through its own enrollment.
    expect(ids(await enrollment.student.get(`/enrollments/${enrollment.id}/media`)).sort((a, b) => a - b)).toEqual(expected);
  });

  it('a lesson released after 7 days shows its media from the seventh day', async () => {
    const { product, m } = await scene();
    const enrollment = await f.enrollment(school, product.id);
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/media/${m.unreleased.id}`));
    service.clock.advanceDays(7);
    const res = await enrollment.student.get(`/enrollments/${enrollment.id}/media/${m.unreleased.id}`);
    expect(res.status, res.text).toBe(200);
  });

  it('given an enrollment that is not active, then an empty list and 404 on show', async () => {
    const { product, m } = await scene();
    const enrollment = await f.enrollment(school, product.id, { status: 'canceled' });
    expect(ids(await school.admin.get(`/enrollments/${enrollment.id}/media`))).toEqual([]);
    expectNotFound(await school.admin.get(`/enrollments/${enrollment.id}/media/${m.released.id}`));
  });

  it("hides from students the storage URL of a package; another student's enrollment is a 404; the school's list is a 403", async () => {
    const { product, lesson } = await scene();
    const packaged = await f.scorm(school);
    await lesson(packaged.id);
    const enrollment = await f.enrollment(school, product.id);
    const res = await enrollment.student.get(`/enrollments/${enrollment.id}/media/${packaged.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.storage_file_url).toBeNull();
    const someoneElse = await f.enrollment(school, product.id);
    expectNotFound(await enrollment.student.get(`/enrollments/${someoneElse.id}/media`));
    expectErrorBody(await enrollment.student.get(`/media/${packaged.id}`), 403);
    expectErrorBody(await enrollment.student.get(`/school_products/${product.id}/media`), 403);
  });
});
