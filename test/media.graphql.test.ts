import { describe, expect, it } from 'vitest';
import { mediaFixtures } from './support/media.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of Media: mutations with UserErrors, the related fields through loaders (a
// statement-count test), the public view and a SCORM launch.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof mediaFixtures>;

twoSchools('GraphQL Media School', 'Other GraphQL Media School', (w) => {
  ({ service, school, other } = w);
  f = mediaFixtures(service);
});

const CREATE = graphql(`mutation ($input: MediaInput!) {
  createMedia(input: $input) { media { id type videoId slideSyncs { syncAt imageId } } errors { field code message } }
}`);

const MEDIA_FIELDS = `id title type hostKey storageFileUrl processingStatus
  slideSyncs { id syncAt image { id url } }
  video { id url }
  libraryResource { id title library { id } }`;

describe('createMedia and updateMedia', () => {
  it('given a VideoSlide, then the media with its slides in order, its video and its library resource', async () => {
    const [resource, video, a, b] = [await f.resource(school), await f.image(school), await f.image(school), await f.image(school)];
    const created = await school.admin.graphql(CREATE, {
      input: {
        title: 'Lecture',
        type: 'VideoSlide',
        hostKey: 'vid-1',
        libraryResourceId: resource.id,
        videoId: video.id,
        videoSlideSyncsAttributes: [
          { imageId: b.id, syncAt: 30 },
          { imageId: a.id, syncAt: 0 },
        ],
      },
    });
    expect(created.data.createMedia.errors).toEqual([]);
    const id = created.data.createMedia.media.id;
    const read = await school.admin.graphql(`query ($id: ID!) { media(id: $id) { ${MEDIA_FIELDS} } }`, { id });
    expect(read.errors).toBeUndefined();
    expect(read.data.media).toMatchObject({
      title: 'Lecture',
      type: 'VideoSlide',
      slideSyncs: [
        { syncAt: 0, image: { id: String(a.id), url: a.url } },
        { syncAt: 30, image: { id: String(b.id), url: b.url } },
      ],
      video: { id: String(video.id), url: video.url },
      libraryResource: { id: String(resource.id), title: resource.title, library: { id: String(school.libraryId) } },
    });
  });

  it('given the rules broken, then UserErrors with the field paths and no media', async () => {
    const res = await school.admin.graphql(CREATE, {
      input: { title: 'x', type: 'VideoSlide', hostKey: 'k', libraryResourceId: (await f.resource(other)).id, videoSlideSyncsAttributes: [{ syncAt: 3 }] },
    });
    expect(res.data.createMedia.media).toBeNull();
    expect(res.data.createMedia.errors.map((e) => [e.field.join('.'), e.code])).toEqual(
      expect.arrayContaining([
        ['libraryResourceId', 'not_found'],
        ['videoId', 'blank'],
        ['videoSlideSyncsAttributes.0.imageId', 'blank'],
      ]),
    );
  });

  it('given a new storageFileUrl on update, then a UserError naming it', async () => {
    const created = await f.scorm(school);
    const res = await school.admin.graphql(
      graphql(`mutation ($id: ID!) { updateMedia(id: $id, input: { storageFileUrl: "s3://other/file.zip" }) { media { id } errors { field code } } }`),
      { id: created.id },
    );
    expect(res.data.updateMedia).toEqual({ media: null, errors: [{ field: ['storageFileUrl'], code: 'unpermitted' }] });
  });

  it('reprocessMedia queues the media', async () => {
    const created = await f.create(school);
    const res = await school.admin.graphql(`mutation ($id: ID!) { reprocessMedia(id: $id) { media { processingStatus processedAt } errors { code } } }`, {
      id: created.id,
    });
    expect(res.data.reprocessMedia).toEqual({ media: { processingStatus: 'queued', processedAt: null }, errors: [] });
  });
});

describe('reportMediaProcessing', () => {
  const REPORT = graphql(`mutation ($id: ID!, $status: MediaProcessingStatus!) {
    reportMediaProcessing(id: $id, status: $status) { media { processingStatus processingRequestedAt processedAt } errors { field code } }
  }`);

  it('given the worker (an app credential), then processing, then ready with processedAt stamped and an event', async () => {
    const created = await f.create(school);
    await school.admin.put(`/media/${created.id}/reprocess`);
    const worker = await service.token('app', school.id);
    const started = await worker.graphql(REPORT, { id: created.id, status: 'processing' });
    expect(started.data.reportMediaProcessing).toMatchObject({ media: { processingStatus: 'processing', processedAt: null }, errors: [] });
    service.clock.set('2026-04-01T08:00:00Z');
    const done = await worker.graphql(REPORT, { id: created.id, status: 'ready' });
    expect(done.data.reportMediaProcessing.media).toMatchObject({ processingStatus: 'ready', processedAt: '2026-04-01T08:00:00.000Z' });
    expect(done.data.reportMediaProcessing.media.processingRequestedAt).not.toBeNull();
    const events = await f.eventsOf(created.id);
    expect(events.map((e) => e.name)).toEqual(['media.reprocess_requested', 'media.processed']);
    expect(events[1].payload).toEqual({ status: 'ready' });
  });

  it('given queued, then a UserError; given an admin credential, then FORBIDDEN; nothing changes', async () => {
    const created = await f.create(school);
    const worker = await service.token('app', school.id);
    const queued = await worker.graphql(REPORT, { id: created.id, status: 'queued' });
    expect(queued.data.reportMediaProcessing).toEqual({ media: null, errors: [{ field: ['status'], code: 'inclusion' }] });
    const admin = await school.admin.graphql(REPORT, { id: created.id, status: 'ready' });
    expect(admin.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(await f.mediaRow(created.id)).toMatchObject({ processingStatus: 'ready', processedAt: null });
  });
});

describe('what a media holds on to', () => {
  it('given an image shown as a slide, then deleteImage is refused as in_use and the slide stays', async () => {
    const created = await f.videoSlide(school, [0]);
    const [slide] = await f.slidesOf(created.id);
    const res = await school.admin.graphql(`mutation ($id: ID!) { deleteImage(id: $id) { image { id } errors { code } } }`, { id: slide.imageId });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteImage).toEqual({ image: null, errors: [{ code: 'in_use' }] });
    expect(await f.slidesOf(created.id)).toEqual([slide]);
  });

  it('given its library resource deleted, then the media stays without one', async () => {
    const created = await f.create(school);
    const res = await school.admin.graphql(`mutation ($id: ID!) { deleteLibraryResource(id: $id) { errors { code } } }`, { id: created.library_resource_id });
    expect(res.data.deleteLibraryResource.errors).toEqual([]);
    expect(await f.mediaRow(created.id)).toMatchObject({ id: created.id, libraryResourceId: null });
  });
});

describe('loaders', () => {
  it('mediaList { slideSyncs { image } video libraryResource } costs the same statements for 12 media as for 2', async () => {
    const query = `query ($type: MediaType) { mediaList(type: $type, first: 100) { totalCount nodes { ${MEDIA_FIELDS} } } }`;
    const count = async () => {
      let res: any;
      const statements = await service.countStatements(async () => {
        res = await other.admin.graphql(query, { type: 'VideoSlide' });
      });
      expect(res.errors).toBeUndefined();
      return { statements, nodes: res.data.mediaList.nodes };
    };
    for (let i = 0; i < 2; i++) await f.videoSlide(other, [0, 10, 20]);
    const small = await count();
    expect(small.nodes).toHaveLength(2);
    for (let i = 0; i < 10; i++) await f.videoSlide(other, [0, 10, 20]);
    const large = await count();
    expect(large.nodes).toHaveLength(12);
    expect(large.nodes.every((m: any) => m.slideSyncs.length === 3 && m.slideSyncs.every((s: any) => s.image.url) && m.video && m.libraryResource.library)).toBe(
      true,
    );
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBeLessThanOrEqual(8);
  });
});

describe('publicMedia', () => {
  it('answers without a credential, with the public fields only', async () => {
    const created = await f.videoSlide(school, [2, 1]);
    const res = await service.anonymous.graphql(`query ($id: ID!) { publicMedia(id: $id) { id title type slides { syncAt imageUrl } } }`, {
      id: created.id,
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.publicMedia).toMatchObject({ id: String(created.id), type: 'VideoSlide' });
    expect(res.data.publicMedia.slides.map((s: any) => s.syncAt)).toEqual([1, 2]);
    const hostKey = await service.anonymous.graphql(`query ($id: ID!) { publicMedia(id: $id) { hostKey } }`, { id: created.id });
    expect(hostKey.errors?.[0].message).toMatch(/hostKey/);
  });

  it("shows the same to a credential of another school (the public view has no school)", async () => {
    const created = await f.videoSlide(school, [8, 3]);
    const query = graphql(`query ($id: ID!) { publicMedia(id: $id) { id slides { syncAt imageUrl } } }`);
    const anonymous = await service.anonymous.graphql(query, { id: created.id });
    const foreign = await other.admin.graphql(query, { id: created.id });
    expect(foreign.errors).toBeUndefined();
    expect(foreign.data).toEqual(anonymous.data);
    expect(foreign.data.publicMedia.slides.map((s) => s.syncAt)).toEqual([3, 8]);
  });

  it('the full media needs a credential', async () => {
    const created = await f.create(school);
    const res = await service.anonymous.graphql(`query ($id: ID!) { media(id: $id) { id } }`, { id: created.id });
    expect(res.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('launchScorm and scormLaunch', () => {
  it('given an active enrollment, then a URI whose token scormLaunch opens; a foreign redirect is a UserError', async () => {
    const c = await f.catalogue(school);
    const media = await f.scorm(school);
    await c.lesson(media.id);
    const enrollment = await f.enrollment(school, c.product.id);
    const subdomain = (await school.admin.get(`/schools/${school.id}`)).body.subdomain;
    const launch = graphql(`mutation ($id: ID!, $enrollmentId: ID, $redirectUri: String) {
      launchScorm(id: $id, enrollmentId: $enrollmentId, redirectUri: $redirectUri) { launch { uri mediaId enrollmentId } errors { field code } }
    }`);
    const ok = await enrollment.student.graphql(launch, { id: media.id, enrollmentId: enrollment.id, redirectUri: `https://${subdomain}.localhost/done` });
    expect(ok.data.launchScorm.errors).toEqual([]);
    const token = new URL(ok.data.launchScorm.launch.uri).searchParams.get('token');
    const opened = await service.anonymous.graphql(`query ($token: String!) { scormLaunch(token: $token) { mediaId enrollmentId preview packageUrl } }`, {
      token,
    });
    expect(opened.data.scormLaunch).toEqual({ mediaId: String(media.id), enrollmentId: String(enrollment.id), preview: false, packageUrl: media.storage_file_url });
    const foreign = await enrollment.student.graphql(launch, { id: media.id, enrollmentId: enrollment.id, redirectUri: 'https://evil.example.com/' });
    expect(foreign.data.launchScorm).toEqual({ launch: null, errors: [{ field: ['redirectUri'], code: 'foreign_host' }] });
  });
});
