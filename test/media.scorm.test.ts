import { describe, expect, it } from 'vitest';
import { mediaFixtures } from './support/media.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// SCORM launches: preview (staff) and launch_scorm (an enrollment) hand out a URI carrying a
// signed, expiring token; opening it needs nothing else. Redirects stay on the school's hosts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof mediaFixtures>;
let home: string;

twoSchools('Scorm School', 'Other Scorm School', async (w) => {
  ({ service, school, other } = w);
  f = mediaFixtures(service);
  const shown = await school.admin.get(`/schools/${school.id}`);
  home = `https://${shown.body.subdomain}.localhost`;
});

/** A SCORM package in a lesson of a product, and an active enrollment in that product. */
async function enrolledPackage() {
  const c = await f.catalogue(school);
  const media = await f.scorm(school);
  await c.lesson(media.id);
  const enrollment = await f.enrollment(school, c.product.id);
  return { ...c, media, enrollment };
}

/** Opens a launch URI as a browser would: no credential, just the URI. */
function open(uri: string, client: Client = service.anonymous) {
  const url = new URL(uri);
  expect(url.origin).toBe('http://localhost:4000');
  return client.get(`${url.pathname}${url.search}`);
}

describe('launch_scorm', () => {
  it('given an active enrollment of a product holding the package, then a launch URI that opens the package', async () => {
    const { media, enrollment } = await enrolledPackage();
    const redirect = `${home}/courses/1?done=1`;
    const res = await school.admin.get(`/media/${media.id}/launch_scorm?enrollment_id=${enrollment.id}&redirect_uri=${encodeURIComponent(redirect)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ media_id: media.id, enrollment_id: enrollment.id, redirect_uri: redirect });
    expect(new Date(res.body.expires_at).getTime()).toBe(service.clock.now().getTime() + 15 * 60_000);
    const opened = await open(res.body.uri);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toEqual({
      media_id: media.id,
      enrollment_id: enrollment.id,
      preview: false,
      title: media.title,
      package_url: media.storage_file_url,
      redirect_uri: redirect,
      expires_at: res.body.expires_at,
    });
  });

  it('answers POST with the params in the body, and the student of the enrollment may launch', async () => {
    const { media, enrollment } = await enrolledPackage();
    const res = await enrollment.student.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: `${home}/` });
    expect(res.status, res.text).toBe(200);
    expect((await open(res.body.uri)).status).toBe(200);
  });

  it('given the URI after it expired, then 401', async () => {
    const { media, enrollment } = await enrolledPackage();
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    expect(res.status, res.text).toBe(200);
    service.clock.set(new Date(service.clock.now().getTime() + 15 * 60_000 + 1000));
    const opened = await open(res.body.uri);
    expectErrorBody(opened, 401);
  });

  it('given a tampered token (another media in its claims, or a changed signature), then 401', async () => {
    const { media, enrollment } = await enrolledPackage();
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    const url = new URL(res.body.uri);
    const [payload, signature] = url.searchParams.get('token')!.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, redirectUri: 'https://evil.example.com/' })).toString('base64url');
    expectErrorBody(await service.anonymous.get(`/scorm/launch?token=${forged}.${signature}`), 401);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expectErrorBody(await service.anonymous.get(`/scorm/launch?token=${payload}.${flipped}`), 401);
    expectErrorBody(await service.anonymous.get('/scorm/launch?token=garbage'), 401);
    expectErrorBody(await service.anonymous.get('/scorm/launch'), 400);
  });

  it.each([
    ['another site', 'https://evil.example.com/'],
    ['a host that only starts like the school', 'https://{sub}.localhost.evil.example.com/'],
    ['a javascript: URI', 'javascript:alert(1)'],
    ['an ftp URL', 'ftp://{sub}.localhost/x'],
    ['a relative path', '/courses/1'],
    ['credentials in the URL', 'https://user:pass@{sub}.localhost/'],
  ])('given a redirect_uri to %s, then 422 on redirect_uri', async (_, template) => {
    const { media, enrollment } = await enrolledPackage();
    const sub = new URL(home).hostname.split('.')[0];
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: template.replace('{sub}', sub) });
    expectFieldError(res, 422, 'redirect_uri');
  });

  it("given no redirect_uri, then 422; given the school's own domain or a subdomain of it, then 200", async () => {
    const { media, enrollment } = await enrolledPackage();
    expectFieldError(await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id }), 422, 'redirect_uri', 'blank');
    const domains = await school.admin.put(`/school/${school.id}`, { school: { domains: ['academy-scorm.example.org'] } });
    expect(domains.status, domains.text).toBe(200);
    for (const redirect of ['https://academy-scorm.example.org/back', 'http://www.academy-scorm.example.org/', `${home}/x`]) {
      const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: redirect });
      expect(res.status, `${redirect}: ${res.text}`).toBe(200);
    }
    // The other school's hosts are not this school's.
    const theirs = await other.admin.get(`/schools/${other.id}`);
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, {
      enrollment_id: enrollment.id,
      redirect_uri: `https://${theirs.body.subdomain}.localhost/`,
    });
    expectFieldError(res, 422, 'redirect_uri', 'foreign_host');
  });

  it.each([
    ['canceled', { status: 'canceled' as const }],
    ['pending', { status: 'pending' as const }],
    ['past its available_until', { unlimited: false, availableUntil: new Date('2026-01-01T00:00:00Z') }],
  ])('given an enrollment that is %s, then 422 inactive', async (_, fields) => {
    const c = await f.catalogue(school);
    const media = await f.scorm(school);
    await c.lesson(media.id);
    const enrollment = await f.enrollment(school, c.product.id, fields);
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    expectFieldError(res, 422, 'enrollment_id', 'inactive');
  });

  it('given an enrollment of a product that does not hold the package, or where it is not released yet, then 422', async () => {
    const { media } = await enrolledPackage();
    const unrelated = await f.catalogue(school);
    const enrollment = await f.enrollment(school, unrelated.product.id);
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    expectFieldError(res, 422, 'enrollment_id', 'no_access');
    const later = await f.scorm(school);
    await unrelated.lesson(later.id, { release_after: 3 });
    const early = await school.admin.post(`/media/${later.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    expectFieldError(early, 422, 'enrollment_id', 'no_access');
  });

  it("given another school's enrollment, another student's enrollment or none, then 422 on enrollment_id", async () => {
    const { media, enrollment } = await enrolledPackage();
    const foreign = await f.enrollment(other, (await f.product(other)).id);
    expectFieldError(
      await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: foreign.id, redirect_uri: home }),
      422,
      'enrollment_id',
      'not_found',
    );
    const classmate = await f.enrollment(school, (await f.product(school)).id);
    expectFieldError(
      await classmate.student.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home }),
      422,
      'enrollment_id',
      'not_found',
    );
    expectFieldError(await school.admin.post(`/media/${media.id}/launch_scorm`, { redirect_uri: home }), 422, 'enrollment_id', 'blank');
  });

  it('given a media that is not a SCORM package, then 422 saying so', async () => {
    const c = await f.catalogue(school);
    const video = await f.videoSlide(school);
    await c.lesson(video.id);
    const enrollment = await f.enrollment(school, c.product.id);
    const res = await school.admin.post(`/media/${video.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    expectFieldError(res, 422, 'base', 'not_scorm');
    expect(res.body.errors.base[0]).toContain('VideoSlide');
  });

  it("given another school's media, then 404", async () => {
    const foreign = await f.scorm(other);
    const { enrollment } = await enrolledPackage();
    expectNotFound(await school.admin.post(`/media/${foreign.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home }));
  });

  it('given an enrollment canceled after the URI was handed out, then opening it is a 403', async () => {
    const { media, enrollment } = await enrolledPackage();
    const res = await school.admin.post(`/media/${media.id}/launch_scorm`, { enrollment_id: enrollment.id, redirect_uri: home });
    const canceled = await school.admin.put(`/enrollments/${enrollment.id}`, { enrollment: { status: 'canceled' } });
    expect(canceled.status, canceled.text).toBe(200);
    expectErrorBody(await open(res.body.uri), 403);
  });
});

describe('preview', () => {
  it('given staff and a SCORM package, then a URI that opens it as a preview (GET and POST)', async () => {
    const media = await f.scorm(school);
    const got = await school.admin.get(`/media/${media.id}/preview?redirect_uri=${encodeURIComponent(home)}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ media_id: media.id, enrollment_id: null });
    const opened = await open(got.body.uri);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toMatchObject({ media_id: media.id, enrollment_id: null, preview: true, package_url: media.storage_file_url });
    const posted = await school.admin.post(`/media/${media.id}/preview`, { redirect_uri: home });
    expect(posted.status, posted.text).toBe(200);
  });

  it('given a student, then 403; a plain media, then 422; a foreign redirect, then 422', async () => {
    const media = await f.scorm(school);
    const student = await f.studentClient(school);
    expectErrorBody(await student.post(`/media/${media.id}/preview`, { redirect_uri: home }), 403);
    const plain = await f.create(school);
    expectFieldError(await school.admin.post(`/media/${plain.id}/preview`, { redirect_uri: home }), 422, 'base', 'not_scorm');
    expectFieldError(await school.admin.post(`/media/${media.id}/preview`, { redirect_uri: 'https://evil.example.com' }), 422, 'redirect_uri', 'foreign_host');
  });
});

describe('a suspended school (the gate lets it only read)', () => {
  it("given a suspended school, then its student still launches a SCORM package (GET, a mutation that writes nothing) and its staff still previews it; a write is 403", async () => {
    const s = await service.school('Suspended Scorm School');
    const c = await f.catalogue(s);
    const media = await f.scorm(s);
    await c.lesson(media.id);
    const enrollment = await f.enrollment(s, c.product.id);
    const redirect = encodeURIComponent(`https://${(await s.admin.get(`/schools/${s.id}`)).body.subdomain}.localhost/`);
    expect((await service.platform.patch(`/school/${s.id}`, { school: { event: 'suspend' } })).body.status).toBe('suspended');

    const launched = await enrollment.student.get(`/media/${media.id}/launch_scorm?enrollment_id=${enrollment.id}&redirect_uri=${redirect}`);
    expect(launched.status, launched.text).toBe(200);
    expect((await open(launched.body.uri)).body).toMatchObject({ media_id: media.id, enrollment_id: enrollment.id, preview: false });
    const previewed = await s.admin.get(`/media/${media.id}/preview?redirect_uri=${redirect}`);
    expect(previewed.status, previewed.text).toBe(200);
    const renamed = await s.admin.patch(`/media/${media.id}`, { media: { title: 'Renamed while suspended' } });
    expectFieldError(renamed, 403, 'base', 'forbidden');
    expect(renamed.body.errors.base).toEqual(['The school is suspended: its credentials may only read']);
  });
});
