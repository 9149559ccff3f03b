import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';

// GraphQL face of Integration and IntegrationSuggestion.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('GraphQL Integrations', 'GraphQL Integrations Other')));
afterAll(() => service?.stop());

const FIELDS = 'id schoolId ownerType ownerId type active metadata metaconfig';
const create = `mutation ($input: IntegrationInput!) { createIntegration(input: $input) { integration { ${FIELDS} } errors { field code message } } }`;
const SECRET = 'whsec_0123456789abcdefXYZW';

describe('integrations', () => {
  it('createIntegration stores and returns a masked metaconfig; the payload carries UserErrors', async () => {
    const ok = await school.admin.graphql(create, {
      input: { ownerType: 'School', ownerId: school.id, metadata: { events: ['course.created'] }, metaconfig: { secret: SECRET }, type: 'webhook' },
    });
    expect(ok.data.createIntegration).toMatchObject({
      errors: [],
      integration: { ownerType: 'School', ownerId: String(school.id), metadata: { events: ['course.created'] }, metaconfig: { secret: '****XYZW' }, active: true },
    });
    expect(JSON.stringify(ok)).not.toContain(SECRET);

    const bad = await school.admin.graphql(create, { input: { ownerType: 'Course', ownerId: (await f.course(other)).id, metadata: { events: ['x.y'] } } });
    expect(bad.data.createIntegration.integration).toBeNull();
    expect(bad.data.createIntegration.errors.map((e: any) => [e.field.join('.'), e.code]).sort()).toEqual([
      ['metadata.events', 'inclusion'],
      ['ownerId', 'not_found'],
    ]);
  });

  it('integration, integrations filtered by owner and active, update and delete', async () => {
    const product = await f.product(school);
    const a = (await school.admin.graphql(create, { input: { ownerType: 'SchoolProduct', ownerId: product.id } })).data.createIntegration.integration;
    const b = (await school.admin.graphql(create, { input: { ownerType: 'School', ownerId: school.id, active: false } })).data.createIntegration.integration;
    const q = graphql(`query ($t: String, $o: ID, $a: Boolean) { integrations(ownerType: $t, ownerId: $o, active: $a, first: 100) { totalCount nodes { id } } }`);
    expect(ids((await school.admin.graphql(q, { t: 'SchoolProduct', o: product.id })).data.integrations.nodes)).toEqual([Number(a.id)]);
    expect(ids((await school.admin.graphql(q, { a: false })).data.integrations.nodes)).toContain(Number(b.id));
    expect(ids((await school.admin.graphql(q, { a: false })).data.integrations.nodes)).not.toContain(Number(a.id));

    const upd = await school.admin.graphql(
      graphql(`mutation ($id: ID!) { updateIntegration(id: $id, input: { active: false, metadata: ["order.imported"] }) { integration { active metadata } errors { code } } }`),
      { id: a.id },
    );
    expect(upd.data.updateIntegration).toEqual({ integration: { active: false, metadata: { events: ['order.imported'] } }, errors: [] });
    const one = await school.admin.graphql(`query ($id: ID!) { integration(id: $id) { id active } }`, { id: a.id });
    expect(one.data.integration).toEqual({ id: a.id, active: false });
    const del = await school.admin.graphql(`mutation ($id: ID!) { deleteIntegration(id: $id) { integration { id } errors { code } } }`, { id: a.id });
    expect(del.data.deleteIntegration.integration.id).toBe(a.id);
    expect((await school.admin.graphql(`query ($id: ID!) { integration(id: $id) { id } }`, { id: a.id })).errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it("another school's integration is NOT_FOUND", async () => {
    const theirs = (await other.admin.graphql(create, { input: { ownerType: 'School', ownerId: other.id } })).data.createIntegration.integration;
    expect((await school.admin.graphql(`query ($id: ID!) { integration(id: $id) { id } }`, { id: theirs.id })).errors![0].extensions.code).toBe('NOT_FOUND');
    const upd = await school.admin.graphql(`mutation ($id: ID!) { updateIntegration(id: $id, input: { active: false }) { errors { code } } }`, { id: theirs.id });
    expect(upd.errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('suggestions', () => {
  const suggest = graphql(`mutation ($input: IntegrationSuggestionInput!) { suggestIntegration(input: $input) { integrationSuggestion { id schoolId name url } errors { field code } } }`);
  const listQ = graphql(`{ integrationSuggestions(first: 100) { totalCount nodes { id schoolId name description url createdAt } } }`);

  it('staff authors suggest, a student or an app is FORBIDDEN; only a platform credential lists them', async () => {
    const { client } = await f.studentClient(school);
    const collaborator = await service.token('collaborator', school.id, (await f.person(school, 'Collaborator')).id);
    const made = await collaborator.graphql(suggest, { input: { name: 'Hubspot', url: 'https://hubspot.com' } });
    expect(made.data.suggestIntegration).toMatchObject({ errors: [], integrationSuggestion: { name: 'Hubspot', schoolId: String(school.id) } });
    const invalid = await collaborator.graphql(suggest, { input: { url: 'mailto:x@example.com' } });
    expect(invalid.data.suggestIntegration.errors.map((e) => e.field[0]).sort()).toEqual(['name', 'url']);
    // suggestIntegration is AUTHORS: platform, admin, collaborator.
    const app = await service.token('app', school.id);
    for (const [denied, name] of [[client, 'From a student'], [app, 'From an app']] as const) {
      const res = await denied.graphql(suggest, { input: { name } });
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('FORBIDDEN');
    }

    const listed = await service.platform.graphql(listQ);
    expect(listed.data.integrationSuggestions.nodes.map((n) => n.name)).toContain('Hubspot');
    expect(listed.data.integrationSuggestions.nodes.map((n) => n.name)).not.toContain('From a student');
    expect(listed.data.integrationSuggestions.nodes.map((n) => n.name)).not.toContain('From an app');
    const narrowed = await service.platform.forSchool(other.id).graphql(listQ);
    expect(narrowed.data.integrationSuggestions.nodes.map((n) => n.name)).not.toContain('Hubspot');
    for (const denied of [school.admin, client]) expect((await denied.graphql(listQ)).errors![0].extensions.code).toBe('FORBIDDEN');
  });
});
