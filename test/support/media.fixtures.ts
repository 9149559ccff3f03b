import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { extraContents } from '../../src/modules/extra-contents/extra-content.table.js';
import { images, libraryResources } from '../../src/modules/library/library.table.js';
import { media, videoSlideSyncs } from '../../src/modules/media/media.table.js';
import { api, fixtures as contentFixtures, next } from './courses.fixtures.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './fingerprint.js';
import type { Service, TestSchool } from './service.js';

// Fixtures of the media tests. Library resources, images and extra contents are inserted with
// drizzle (their APIs have tests of their own); media are made through POST /media.

export function mediaFixtures(service: Service) {
  const db = () => service.db;
  const content = contentFixtures(service);

  async function resource(s: TestSchool) {
    const [row] = await db().insert(libraryResources).values({ schoolId: s.id, libraryId: s.libraryId, title: `Resource ${next()}` }).returning();
    return row;
  }
  async function image(s: TestSchool) {
    const n = next();
    const [row] = await db().insert(images).values({ schoolId: s.id, url: `https://cdn.example.com/slides/${n}.png`, title: `Slide ${n}` }).returning();
    return row;
  }
  /** The fields every media needs, for school `s`. */
  async function required(s: TestSchool, type = 'Media') {
    return { title: `Media ${next()}`, type, host_key: `host-key-${next()}`, library_resource_id: (await resource(s)).id };
  }
  /** POST /media as the school's admin; expects 201. */
  async function create(s: TestSchool, fields: Record<string, unknown> = {}) {
    const res = await s.admin.post('/media', { media: { ...(await required(s, String(fields.type ?? 'Media'))), ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  async function videoSlide(s: TestSchool, syncAts = [0, 30]) {
    const video = await image(s);
    const slides = [];
    for (const syncAt of syncAts) slides.push({ image_id: (await image(s)).id, sync_at: syncAt });
    return create(s, { type: 'VideoSlide', video_id: video.id, video_slide_syncs_attributes: slides });
  }
  async function scorm(s: TestSchool, url = `s3://packages/${next()}/package.zip`) {
    return create(s, { type: 'ScormPackage', storage_file_url: url });
  }
  async function mediaRow(id: number) {
    const [row] = await db().select().from(media).where(eq(media.id, id));
    return row;
  }
  async function slidesOf(mediaId: number) {
    return db().select().from(videoSlideSyncs).where(eq(videoSlideSyncs.mediaId, mediaId)).orderBy(asc(videoSlideSyncs.id));
  }
  async function extraContent(s: TestSchool, resourceType: 'Lesson' | 'Course' | 'SchoolProduct', resourceId: number, mediaId: number, available = true) {
    await db().insert(extraContents).values({ schoolId: s.id, resourceType, resourceId, mediaId, order: 0, available });
  }
  /**
   * A product with one course and module, offered to an enrollment; `lesson(mediaId, fields)` adds a
   * lesson of the module showing that media.
   */
  async function catalogue(s: TestSchool) {
    const product = await content.product(s);
    const course = await api(s.admin).course();
    await content.offer(product.id, [course.id]);
    const module = await api(s.admin).module(course.id);
    const lesson = (mediaId: number, fields: Record<string, unknown> = {}) =>
      api(s.admin).lesson({ course_module_id: module.id, media_id: mediaId, available: true, ...fields });
    return { product, course, module, lesson };
  }
  async function eventsOf(mediaId: number) {
    return db()
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.subjectType, 'Media'), eq(domainEvents.subjectId, mediaId)))
      .orderBy(asc(domainEvents.id));
  }
  const snapshot = fingerprint(() => service, { media, slides: videoSlideSyncs, events: domainEvents });
  const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);
  return { ...content, resource, image, required, create, videoSlide, scorm, mediaRow, slidesOf, extraContent, catalogue, eventsOf, expectNoWrite };
}
