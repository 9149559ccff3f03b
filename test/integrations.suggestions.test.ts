import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSuggestions } from '../src/modules/integrations/integration.table.js';
import { fixtures } from './support/messages.fixtures.js';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// POST /integrations/suggestions: staff authors (platform, admin, collaborator) send one; the spec gives no payload, so the
// fields come in a `suggestion` hash or at the top level.

let service: Service;
let school: TestSchool;
let f: ReturnType<typeof fixtures>;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Suggestions School');
  f = fixtures(service);
});
afterAll(() => service?.stop());

describe('POST /integrations/suggestions', () => {
  async function suggestionRow(id: number) {
    const [r] = await service.db.select().from(integrationSuggestions).where(eq(integrationSuggestions.id, id));
    return r;
  }

  it('given top-level fields as JSON, then 201 with the suggestion stored for the school', async () => {
    const res = await school.admin.post('/integrations/suggestions', { name: 'Slack', description: 'Post new enrollments', url: 'https://slack.com' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ school_id: school.id, name: 'Slack', description: 'Post new enrollments', url: 'https://slack.com' });
    expect(res.headers.location).toBeUndefined();
    expect(await suggestionRow(res.body.id)).toMatchObject({ schoolId: school.id, name: 'Slack' });
  });

  it('given a suggestion hash as a form body, from a collaborator credential, then 201', async () => {
    const collaborator = await service.token('collaborator', school.id, (await f.person(school, 'Collaborator')).id);
    const res = await collaborator.post('/integrations/suggestions', { suggestion: { name: 'Discord', url: 'http://discord.com/app' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Discord', url: 'http://discord.com/app', description: null });
  });

  it('from a student or an app credential, then 403 and nothing stored', async () => {
    const before = await service.db.select().from(integrationSuggestions);
    const { client } = await f.studentClient(school);
    expectErrorBody(await client.post('/integrations/suggestions', { suggestion: { name: 'Student idea' } }, { encoding: 'form' }), 403);
    const app = await service.token('app', school.id);
    expectErrorBody(await app.post('/integrations/suggestions', { name: 'App idea' }), 403);
    expect(await service.db.select().from(integrationSuggestions)).toEqual(before);
  });

  it('from a platform credential, then the suggestion has no school', async () => {
    const res = await service.platform.post('/integrations/suggestions', { suggestion: { name: 'Platform idea' } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBeNull();
  });

  it('given no name or a url that is not http(s), then 422; without a credential 401', async () => {
    const before = await service.db.select().from(integrationSuggestions);
    const noName = await school.admin.post('/integrations/suggestions', { description: 'nameless' });
    expectFieldError(noName, 422, 'name', 'blank');
    const badUrl = await school.admin.post('/integrations/suggestions', { name: 'FTP', url: 'ftp://files.example.com' });
    expectFieldError(badUrl, 422, 'url', 'invalid');
    const notUrl = await school.admin.post('/integrations/suggestions', { name: 'X', url: 'not a url' });
    expectFieldError(notUrl, 422, 'url', 'invalid');
    expectErrorBody(await service.anonymous.post('/integrations/suggestions', { name: 'Anon' }), 401);
    expect(await service.db.select().from(integrationSuggestions)).toEqual(before);
  });
});
