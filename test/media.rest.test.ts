import { describe, expect, it } from 'vitest';
import { ids } from './support/courses.fixtures.js';
import { mediaFixtures } from './support/media.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of Media: create and update with the rules of each type, destroy, the school's list,
// reprocess (both routes) and the public view. Scopes are in media.scopes.test.ts, SCORM launches
// in media.scorm.test.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof mediaFixtures>;

twoSchools('Media School', 'Other Media School', (w) => {
  ({ service, school, other } = w);
  f = mediaFixtures(service);
});

describe('POST /media', () => {
  it('given the required fields of a plain media, then 201 with a Location, ready for use', async () => {
    const fields = await f.required(school);
    const res = await school.admin.post('/media', { media: { ...fields, text: 'Notes' } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/media/${res.body.id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      title: fields.title,
      type: 'Media',
      host_key: fields.host_key,
      library_resource_id: fields.library_resource_id,
      text: 'Notes',
      video_id: null,
      storage_file_url: null,
      processing_status: 'ready',
      slide_syncs: [],
    });
    expect(await f.mediaRow(res.body.id)).toMatchObject({ schoolId: school.id, title: fields.title, hostKey: fields.host_key });
  });

  it.each([['title'], ['type'], ['host_key'], ['library_resource_id']])('given no %s, then 422 naming it and nothing written', async (field) => {
    const fields: Record<string, unknown> = await f.required(school);
    delete fields[field];
    const res = await f.expectNoWrite(() => school.admin.post('/media', { media: fields }));
    expectFieldError(res, 422, field, 'blank');
  });

  it('given a type outside the closed list (Text, Podcast), then 422 inclusion naming type and the values', async () => {
    for (const type of ['Text', 'Podcast']) {
      const res = await f.expectNoWrite(async () => school.admin.post('/media', { media: { ...(await f.required(school)), type } }));
      expectFieldError(res, 422, 'type', 'inclusion');
      expect(res.body.errors.type[0]).toBe('is not included in the list (Media, VideoSlide, ScormPackage)');
    }
  });

  it("given another school's library resource, then 422 on library_resource_id", async () => {
    const foreign = await f.resource(other);
    const res = await school.admin.post('/media', { media: { ...(await f.required(school)), library_resource_id: foreign.id } });
    expectFieldError(res, 422, 'library_resource_id', 'not_found');
  });

  describe('VideoSlide', () => {
    it('given a video and slides out of order, then 201 and the slides stored and shown in sync_at order', async () => {
      const [video, a, b, c] = [await f.image(school), await f.image(school), await f.image(school), await f.image(school)];
      const res = await school.admin.post('/media', {
        media: {
          ...(await f.required(school, 'VideoSlide')),
          video_id: video.id,
          video_slide_syncs_attributes: [
            { image_id: c.id, sync_at: 90 },
            { image_id: a.id, sync_at: 0 },
            { image_id: b.id, sync_at: 45 },
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.video_id).toBe(video.id);
      expect(res.body.slide_syncs.map((s: any) => [s.image_id, s.sync_at])).toEqual([
        [a.id, 0],
        [b.id, 45],
        [c.id, 90],
      ]);
      const stored = await f.slidesOf(res.body.id);
      expect(stored.map((s) => s.syncAt)).toEqual([0, 45, 90]);
      expect(stored.every((s) => s.schoolId === school.id)).toBe(true);
    });

    it('given no video_id, then 422 on video_id', async () => {
      const slide = { image_id: (await f.image(school)).id, sync_at: 0 };
      const res = await f.expectNoWrite(async () =>
        school.admin.post('/media', { media: { ...(await f.required(school, 'VideoSlide')), video_slide_syncs_attributes: [slide] } }),
      );
      expectFieldError(res, 422, 'video_id', 'blank');
    });

    it.each([['absent', undefined], ['empty', []]])('given slides %s, then 422 on video_slide_syncs_attributes', async (_, slides) => {
      const video = await f.image(school);
      const res = await f.expectNoWrite(async () =>
        school.admin.post('/media', { media: { ...(await f.required(school, 'VideoSlide')), video_id: video.id, video_slide_syncs_attributes: slides } }),
      );
      expectFieldError(res, 422, 'video_slide_syncs_attributes', 'blank');
    });

    it('given a slide without image_id or sync_at, then 422 naming the slide and its field', async () => {
      const video = await f.image(school);
      const image = await f.image(school);
      const res = await f.expectNoWrite(async () =>
        school.admin.post('/media', {
          media: {
            ...(await f.required(school, 'VideoSlide')),
            video_id: video.id,
            video_slide_syncs_attributes: [{ image_id: image.id, sync_at: 0 }, { sync_at: 10 }, { image_id: image.id }],
          },
        }),
      );
      expectFieldError(res, 422, 'video_slide_syncs_attributes[1].image_id', 'blank');
      expectFieldError(res, 422, 'video_slide_syncs_attributes[2].sync_at', 'blank');
    });

    it('given two slides at one moment, a negative moment and an image of another school, then 422 for each', async () => {
      const video = await f.image(school);
      const [mine, foreign] = [await f.image(school), await f.image(other)];
      const res = await f.expectNoWrite(async () =>
        school.admin.post('/media', {
          media: {
            ...(await f.required(school, 'VideoSlide')),
            video_id: video.id,
            video_slide_syncs_attributes: [
              { image_id: mine.id, sync_at: 5 },
              { image_id: mine.id, sync_at: 5 },
              { image_id: mine.id, sync_at: -1 },
              { image_id: foreign.id, sync_at: 7 },
            ],
          },
        }),
      );
      expectFieldError(res, 422, 'video_slide_syncs_attributes[1].sync_at', 'duplicate');
      expectFieldError(res, 422, 'video_slide_syncs_attributes[2].sync_at', 'greater_than_or_equal_to');
      expectFieldError(res, 422, 'video_slide_syncs_attributes.image_id', 'not_found');
    });

    it("given a video of another school, then 422 on video_id", async () => {
      const res = await school.admin.post('/media', {
        media: {
          ...(await f.required(school, 'VideoSlide')),
          video_id: (await f.image(other)).id,
          video_slide_syncs_attributes: [{ image_id: (await f.image(school)).id, sync_at: 0 }],
        },
      });
      expectFieldError(res, 422, 'video_id', 'not_found');
    });

    it('given a form body with index-keyed slides, then 201 with typed values', async () => {
      const [video, a, b] = [await f.image(school), await f.image(school), await f.image(school)];
      const fields = await f.required(school, 'VideoSlide');
      const raw = [
        ...Object.entries(fields).map(([k, v]) => `media[${k}]=${encodeURIComponent(String(v))}`),
        `media[video_id]=${video.id}`,
        `media[video_slide_syncs_attributes][0][image_id]=${b.id}`,
        'media[video_slide_syncs_attributes][0][sync_at]=20',
        `media[video_slide_syncs_attributes][1][image_id]=${a.id}`,
        'media[video_slide_syncs_attributes][1][sync_at]=3',
      ].join('&');
      const res = await school.admin.post('/media', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.slide_syncs.map((s: any) => [s.image_id, s.sync_at])).toEqual([
        [a.id, 3],
        [b.id, 20],
      ]);
    });

    it('given the slides as one hash (not a list) in a multipart body, then it is a list of one', async () => {
      const [video, a] = [await f.image(school), await f.image(school)];
      const res = await school.admin.post(
        '/media',
        { media: { ...(await f.required(school, 'VideoSlide')), video_id: video.id, video_slide_syncs_attributes: { image_id: a.id, sync_at: 12 } } },
        { encoding: 'multipart' },
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body.slide_syncs).toEqual([expect.objectContaining({ image_id: a.id, sync_at: 12 })]);
    });

    it('given slides on a media that is not a VideoSlide, then 422', async () => {
      const res = await school.admin.post('/media', {
        media: { ...(await f.required(school)), video_slide_syncs_attributes: [{ image_id: (await f.image(school)).id, sync_at: 0 }] },
      });
      expectFieldError(res, 422, 'video_slide_syncs_attributes', 'present');
    });
  });

  describe('ScormPackage', () => {
    it('given storage_file_url, then 201 with it', async () => {
      const body = await f.scorm(school, 'https://storage.example.com/packages/intro.zip');
      expect(body).toMatchObject({ type: 'ScormPackage', storage_file_url: 'https://storage.example.com/packages/intro.zip' });
    });

    it('given no storage_file_url, then 422 on storage_file_url', async () => {
      const res = await f.expectNoWrite(async () => school.admin.post('/media', { media: await f.required(school, 'ScormPackage') }));
      expectFieldError(res, 422, 'storage_file_url', 'blank');
    });

    it('given a storage_file_url that is not a URL, then 422 invalid', async () => {
      const res = await school.admin.post('/media', { media: { ...(await f.required(school, 'ScormPackage')), storage_file_url: 'package.zip' } });
      expectFieldError(res, 422, 'storage_file_url', 'invalid');
    });
  });

  it('given a student credential, then 403; given none, then 401', async () => {
    const student = await f.studentClient(school);
    const fields = await f.required(school);
    expectErrorBody(await student.post('/media', { media: fields }), 403);
    expectErrorBody(await service.anonymous.post('/media', { media: fields }), 401);
  });
});

describe('PUT and PATCH /media/:id', () => {
  it('given a new title, then 200 with a Location of the show path', async () => {
    const created = await f.create(school);
    for (const method of ['put', 'patch'] as const) {
      const res = await school.admin[method](`/media/${created.id}`, { media: { title: `Renamed by ${method}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBe(`/media/${created.id}`);
      expect(res.body.title).toBe(`Renamed by ${method}`);
    }
  });

  it('given a new storage_file_url, then 422 naming it and the file unchanged', async () => {
    const created = await f.scorm(school);
    const res = await f.expectNoWrite(() => school.admin.put(`/media/${created.id}`, { media: { storage_file_url: 's3://packages/other.zip' } }));
    expectFieldError(res, 422, 'storage_file_url', 'unpermitted');
  });

  it('given the whole fetched media back (its storage_file_url unchanged), then 200', async () => {
    const created = await f.scorm(school);
    const res = await school.admin.put(`/media/${created.id}`, { media: { ...created, title: 'Same file' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Same file', storage_file_url: created.storage_file_url });
  });

  it('given a plain media turned into a ScormPackage, then 422: only create takes a file', async () => {
    const created = await f.create(school);
    const res = await school.admin.put(`/media/${created.id}`, { media: { type: 'ScormPackage' } });
    expectFieldError(res, 422, 'storage_file_url', 'blank');
  });

  it('given new slides, then they replace the old ones, in order', async () => {
    const created = await f.videoSlide(school, [0, 10, 20]);
    const [a, b] = [await f.image(school), await f.image(school)];
    const res = await school.admin.patch(`/media/${created.id}`, {
      media: { video_slide_syncs_attributes: [{ image_id: b.id, sync_at: 60 }, { image_id: a.id, sync_at: 15 }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.slide_syncs.map((s: any) => [s.image_id, s.sync_at])).toEqual([
      [a.id, 15],
      [b.id, 60],
    ]);
    expect((await f.slidesOf(created.id)).map((s) => s.syncAt).sort((x, y) => x - y)).toEqual([15, 60]);
  });

  it('given a VideoSlide update without slides, then they stay; given an empty list or no video, then 422', async () => {
    const created = await f.videoSlide(school, [0, 30]);
    const kept = await school.admin.put(`/media/${created.id}`, { media: { text: 'Transcript' } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.slide_syncs).toHaveLength(2);
    const emptied = await f.expectNoWrite(() => school.admin.put(`/media/${created.id}`, { media: { video_slide_syncs_attributes: [] } }));
    expectFieldError(emptied, 422, 'video_slide_syncs_attributes', 'blank');
    const noVideo = await f.expectNoWrite(() => school.admin.put(`/media/${created.id}`, { media: { video_id: null } }));
    expectFieldError(noVideo, 422, 'video_id', 'blank');
  });

  it('given a plain media turned into a VideoSlide without slides, then 422; a VideoSlide turned plain loses its slides', async () => {
    const plain = await f.create(school);
    const res = await school.admin.put(`/media/${plain.id}`, { media: { type: 'VideoSlide', video_id: (await f.image(school)).id } });
    expectFieldError(res, 422, 'video_slide_syncs_attributes', 'blank');
    const slides = await f.videoSlide(school);
    const turned = await school.admin.put(`/media/${slides.id}`, { media: { type: 'Media' } });
    expect(turned.status, turned.text).toBe(200);
    expect(turned.body).toMatchObject({ type: 'Media', slide_syncs: [] });
    expect(await f.slidesOf(slides.id)).toEqual([]);
  });

  it('given a cleared required field, then 422', async () => {
    const created = await f.create(school);
    expectFieldError(await school.admin.put(`/media/${created.id}`, { media: { title: '' } }), 422, 'title', 'blank');
    expectFieldError(await school.admin.put(`/media/${created.id}`, { media: { host_key: null } }), 422, 'host_key', 'blank');
  });

  it("given another school's media, then 404", async () => {
    const foreign = await f.create(other);
    expectNotFound(await school.admin.put(`/media/${foreign.id}`, { media: { title: 'Mine now' } }));
    expect((await f.mediaRow(foreign.id)).title).toBe(foreign.title);
  });
});

describe('DELETE /media/:id', () => {
  it('given a VideoSlide, then 204 and the media and its slides are gone', async () => {
    const created = await f.videoSlide(school);
    const res = await school.admin.delete(`/media/${created.id}`);
    expect(res.status, res.text).toBe(204);
    expect(await f.mediaRow(created.id)).toBeUndefined();
    expect(await f.slidesOf(created.id)).toEqual([]);
    expectNotFound(await school.admin.get(`/media/${created.id}`));
  });

  it("given another school's media, then 404 and it stays", async () => {
    const foreign = await f.create(other);
    expectNotFound(await school.admin.delete(`/media/${foreign.id}`));
    expect(await f.mediaRow(foreign.id)).toBeDefined();
  });
});

describe('GET /media and /media/:id', () => {
  it("lists the school's media only, with paging headers", async () => {
    const own = await f.create(school);
    const foreign = await f.create(other);
    const all = await school.admin.get('/media');
    expect(ids(all)).toContain(own.id);
    expect(ids(all)).not.toContain(foreign.id);
    const page = await school.admin.get('/media?page=1&per_page=1');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(Number(page.headers['x-total-count'])).toBe(all.body.length);
  });

  it('shows a VideoSlide with its slides; another school\'s media is a 404', async () => {
    const created = await f.videoSlide(school, [5, 1]);
    const res = await school.admin.get(`/media/${created.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.slide_syncs.map((s: any) => s.sync_at)).toEqual([1, 5]);
    expectNotFound(await school.admin.get(`/media/${(await f.create(other)).id}`));
  });

  it('a student reads media only through an enrollment: 403 on the school list', async () => {
    const student = await f.studentClient(school);
    expectErrorBody(await student.get('/media'), 403);
  });
});

describe('reprocess', () => {
  const eventsOf = (mediaId: number) => f.eventsOf(mediaId);

  it('PUT /media/:id/reprocess marks the media queued, stamps the request and records an event', async () => {
    const created = await f.videoSlide(school);
    service.clock.set('2026-03-01T10:00:00Z');
    const res = await school.admin.put(`/media/${created.id}/reprocess`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, processing_status: 'queued', processing_requested_at: '2026-03-01T10:00:00.000Z', processed_at: null });
    expect(await f.mediaRow(created.id)).toMatchObject({ processingStatus: 'queued' });
    const events = await eventsOf(created.id);
    expect(events).toEqual([
      expect.objectContaining({ schoolId: school.id, name: 'media.reprocess_requested', payload: { type: 'VideoSlide', previousStatus: 'ready' } }),
    ]);
  });

  it('PUT /media/:id?action=reprocess is the same action, and ignores a body', async () => {
    const created = await f.create(school);
    const res = await school.admin.put(`/media/${created.id}?action=reprocess`, { media: { title: 'Not an update' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: created.title, processing_status: 'queued' });
    expect(await eventsOf(created.id)).toHaveLength(1);
  });

  it("given another school's media, then 404; given a student, then 403; nothing recorded", async () => {
    const foreign = await f.create(other);
    expectNotFound(await school.admin.put(`/media/${foreign.id}/reprocess`));
    const student = await f.studentClient(school);
    const own = await f.create(school);
    expectErrorBody(await student.put(`/media/${own.id}/reprocess`), 403);
    expect(await eventsOf(foreign.id)).toEqual([]);
    expect(await eventsOf(own.id)).toEqual([]);
  });
});

describe('GET /media/public/:id', () => {
  it('needs no credential and shows what may be published: no host key, no storage URL, no library reference', async () => {
    const created = await f.scorm(school, 's3://internal-bucket/secret/package.zip');
    const res = await service.anonymous.get(`/media/public/${created.id}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'slides', 'text', 'title', 'type', 'updated_at']);
    expect(res.body).toMatchObject({ id: created.id, title: created.title, type: 'ScormPackage', slides: [] });
    expect(res.text).not.toContain(created.host_key);
    expect(res.text).not.toContain('internal-bucket');
  });

  it('shows the slides of a VideoSlide with their image URLs, in order', async () => {
    const created = await f.videoSlide(school, [40, 4]);
    const res = await service.anonymous.get(`/media/public/${created.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.slides.map((s: any) => s.sync_at)).toEqual([4, 40]);
    expect(res.body.slides.every((s: any) => /^https:\/\/cdn\.example\.com\//.test(s.image_url))).toBe(true);
    expect(res.body.slides[0]).not.toHaveProperty('image_id');
  });

  it('given an id that names no media, then 404', async () => {
    expectNotFound(await service.anonymous.get('/media/public/987654'));
    expectNotFound(await service.anonymous.get('/media/public/not-a-number'));
  });
});
