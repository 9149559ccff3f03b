import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schools } from '../../src/db/school.table.js';
import { schoolDomains, schoolStatusChanges } from '../../src/modules/schools/school.table.js';
import type { Service, TestSchool } from '../support/service.js';
import { unique } from '../support/rows.js';
import { CREATE, DELETE, expectCleanErrors, expectExecutionError, SCHOOL, schoolFixtures, UPDATE } from '../support/schools.fixtures.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Schools: createSchool, updateSchool and deleteSchool. Invalid input is payload data
// (`errors`, resource null); not found, forbidden and unauthenticated are execution errors.
// Operations and fixtures: test/support/schools.fixtures.ts.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

describe('Schools over GraphQL', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;

  const { schoolRow, countRows, studentOf } = schoolFixtures(() => service);
  async function createSchool(input: Record<string, unknown> = {}) {
    const res = await service.platform.graphql(CREATE, { input: { name: 'Created', subdomain: unique('gql'), ...input } });
    expect(res.errors).toBeUndefined();
    expect(res.data.createSchool.errors).toEqual([]);
    return res.data.createSchool.school;
  }

  twoSchools('Alpha Academy', 'Beta Institute', (w) => ({ service, school: a, other: b } = w));

  describe('createSchool', () => {
    it('given a platform credential and every field, when creating, then the school and its rows', async () => {
      const links = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`socialLink${n}`, `https://s${n}.example/x`]));
      const subdomain = unique('create');
      const res = await service.platform.graphql(CREATE, {
        input: {
          name: 'Created In GraphQL',
          subdomain,
          domains: ['gql-one.example', 'gql-two.example'],
          email: 'hello@gql.example',
          crmToken: 'crm',
          adsAdvId: 'adv',
          adsPixId: 'pix',
          videoKey: 'vk',
          termsOfUse: 'terms',
          companyName: 'GQL Ltda',
          metadata: { a: 1 },
          metaAvailableLocales: ['pt-BR'],
          ...links,
        },
      });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.errors).toEqual([]);
      const s = res.data.createSchool.school;
      expect(s).toMatchObject({
        name: 'Created In GraphQL',
        subdomain,
        status: 'pending',
        domains: ['gql-one.example', 'gql-two.example'],
        crmToken: '****',
        metadata: { a: 1 },
        metaAvailableLocales: ['pt-BR'],
        ...links,
      });
      expect(s.id).toMatch(/^\d+$/);
      expect(s.createdAt).toMatch(ISO);
      expect(await schoolRow(s.id)).toMatchObject({ subdomain, socialLink7: links.socialLink7, companyName: 'GQL Ltda' });
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, Number(s.id)))).toBe(2);
    });

    it('given no name and no subdomain, when creating, then payload errors, school null, no execution error, no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.graphql(CREATE, { input: { email: 'x@example.com' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.school).toBeNull();
      expect(res.data.createSchool.errors).toEqual([
        { field: ['name'], code: 'blank', message: "can't be blank" },
        { field: ['subdomain'], code: 'blank', message: "can't be blank" },
      ]);
      expect(await countRows(schools)).toBe(before);
    });

    it('given a taken subdomain or domain, when creating, then a taken UserError and no row', async () => {
      const owner = await createSchool({ domains: ['owned-gql.example'] });
      const before = await countRows(schools);
      const sub = await service.platform.graphql(CREATE, { input: { name: 'Dup', subdomain: owner.subdomain.toUpperCase() } });
      expect(sub.errors).toBeUndefined();
      expect(sub.data.createSchool).toEqual({ school: null, errors: [{ field: ['subdomain'], code: 'taken', message: 'has already been taken' }] });
      const dom = await service.platform.graphql(CREATE, { input: { name: 'Dup', subdomain: unique('dup'), domains: ['Owned-GQL.example'] } });
      expect(dom.errors).toBeUndefined();
      expect(dom.data.createSchool.school).toBeNull();
      expect(dom.data.createSchool.errors).toEqual([expect.objectContaining({ field: ['domains'], code: 'taken' })]);
      expectCleanErrors(dom.data.createSchool.errors);
      expect(await countRows(schools)).toBe(before);
    });

    it('given an invalid subdomain, when creating, then an invalid UserError', async () => {
      const res = await service.platform.graphql(CREATE, { input: { name: 'Bad', subdomain: 'bad_sub' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.createSchool.school).toBeNull();
      expect(res.data.createSchool.errors).toEqual([expect.objectContaining({ field: ['subdomain'], code: 'invalid' })]);
    });

    it('given a wrongly typed variable, when creating, then BAD_USER_INPUT and no row', async () => {
      const before = await countRows(schools);
      const res = await service.platform.graphql(CREATE, { input: { name: 'T', subdomain: unique('t'), metadata: 'x' } });
      expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      expectCleanErrors(res.errors);
      expect(await countRows(schools)).toBe(before);
    });

    it('given a school credential, when creating, then FORBIDDEN and no row', async () => {
      const before = await countRows(schools);
      for (const client of [a.admin, await studentOf(a), await service.token('collaborator', a.id)])
        expectExecutionError(await client.graphql(CREATE, { input: { name: 'No', subdomain: unique('no') } }), 'FORBIDDEN', 'createSchool');
      expect(await countRows(schools)).toBe(before);
    });
  });

  describe('updateSchool', () => {
    it('given a platform credential, when updating fields, then they change and others stay', async () => {
      const created = await createSchool({ email: 'keep@example.com' });
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: 'Renamed', socialLink4: 'https://s4.example', domains: ['upd.example'] } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.errors).toEqual([]);
      expect(res.data.updateSchool.school).toMatchObject({ id: created.id, name: 'Renamed', email: 'keep@example.com', socialLink4: 'https://s4.example', domains: ['upd.example'] });
      expect(await schoolRow(created.id)).toMatchObject({ name: 'Renamed', socialLink4: 'https://s4.example' });
    });

    it('given valid events, when updating, then status follows the state machine', async () => {
      const created = await createSchool();
      for (const [event, status] of [['try_out', 'trial'], ['block', 'blocked'], ['active', 'active'], ['overdue', 'overdue'], ['suspend', 'suspended'], ['cancel', 'canceled']]) {
        const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event } });
        expect(res.errors).toBeUndefined();
        expect(res.data.updateSchool.errors, event).toEqual([]);
        expect(res.data.updateSchool.school.status).toBe(status);
        expect((await schoolRow(created.id)).status).toBe(status);
      }
      expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, Number(created.id)))).toBe(6);
    });

    it('given an invalid transition, when updating, then an invalid_transition UserError, school null and no change at all', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: 'Not Applied', event: 'overdue' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.school).toBeNull();
      expect(res.data.updateSchool.errors).toEqual([expect.objectContaining({ field: ['event'], code: 'invalid_transition' })]);
      expect(await schoolRow(created.id)).toMatchObject({ name: 'Created', status: 'pending' });
      expect(await countRows(schoolStatusChanges, eq(schoolStatusChanges.schoolId, Number(created.id)))).toBe(0);
    });

    it('given a canceled school, when any event is sent, then invalid_transition: cancel is final', async () => {
      const created = await createSchool();
      await service.platform.graphql(UPDATE, { id: created.id, input: { event: 'cancel' } });
      for (const event of ['try_out', 'block', 'active', 'overdue', 'suspend', 'cancel']) {
        const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event } });
        expect(res.data.updateSchool.errors.map((e) => e.code), event).toEqual(['invalid_transition']);
      }
      expect((await schoolRow(created.id)).status).toBe('canceled');
    });

    it('given an unknown event, when updating, then BAD_USER_INPUT', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { event: 'explode' } });
      expect(res.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      expect((await schoolRow(created.id)).status).toBe('pending');
    });

    it('given a cleared name, when updating, then a blank UserError', async () => {
      const created = await createSchool();
      const res = await service.platform.graphql(UPDATE, { id: created.id, input: { name: null } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool).toEqual({ school: null, errors: [{ field: ['name'], code: 'blank', message: "can't be blank" }] });
    });

    it('given the school admin, when updating its own school with an event, then it applies', async () => {
      const res = await a.admin.graphql(UPDATE, { id: String(a.id), input: { seoTitle: 'Alpha', event: 'active' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool.school).toMatchObject({ seoTitle: 'Alpha', status: 'active' });
    });

    it('given a suspended school, then its admin may cancel it (the event alone), but neither change a setting nor fire another event', async () => {
      const s = await service.school('Suspended Canceling');
      expect((await service.platform.graphql(UPDATE, { id: String(s.id), input: { event: 'suspend' } })).data.updateSchool.school.status).toBe('suspended');
      for (const input of [{ seoTitle: 'Sneaked' }, { event: 'cancel', seoTitle: 'Sneaked' }, { event: 'active' }, { event: 'cancel', name: null }]) {
        const refused = await s.admin.graphql(UPDATE, { id: String(s.id), input });
        expectExecutionError(refused, 'FORBIDDEN', 'updateSchool');
        expect(refused.errors![0].message).toBe('The school is suspended: its credentials may only read');
      }
      expect(await schoolRow(s.id)).toMatchObject({ status: 'suspended', seoTitle: null });
      const res = await s.admin.graphql(UPDATE, { id: String(s.id), input: { event: 'cancel' } });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateSchool).toMatchObject({ school: { status: 'canceled' }, errors: [] });
      expect((await schoolRow(s.id)).status).toBe('canceled');
    });

    it("given the admin of another school, when updating, then NOT_FOUND and no change", async () => {
      const before = await schoolRow(a.id);
      expectExecutionError(await b.admin.graphql(UPDATE, { id: String(a.id), input: { name: 'Hijack', event: 'cancel' } }), 'NOT_FOUND', 'updateSchool');
      expect(await schoolRow(a.id)).toEqual(before);
    });

    it('given a student or collaborator credential, when updating, then FORBIDDEN and no change', async () => {
      const before = await schoolRow(a.id);
      for (const client of [await studentOf(a), await service.token('collaborator', a.id)])
        expectExecutionError(await client.graphql(UPDATE, { id: String(a.id), input: { name: 'Nope' } }), 'FORBIDDEN', 'updateSchool');
      expect(await schoolRow(a.id)).toEqual(before);
    });

    it.each(['abc', '999999'])('given the id %s, when updating, then NOT_FOUND', async (id) => {
      expectExecutionError(await service.platform.graphql(UPDATE, { id, input: { name: 'X' } }), 'NOT_FOUND', 'updateSchool');
    });
  });

  describe('deleteSchool', () => {
    it('given a platform credential, when deleting, then the payload names it and it is gone', async () => {
      const created = await createSchool({ name: 'To Delete', domains: ['deleted.example'] });
      const res = await service.platform.graphql(DELETE, { id: created.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.deleteSchool).toEqual({ school: { id: created.id, name: 'To Delete' }, errors: [] });
      expect(await countRows(schools, eq(schools.id, Number(created.id)))).toBe(0);
      expect(await countRows(schoolDomains, eq(schoolDomains.schoolId, Number(created.id)))).toBe(0);
      expectExecutionError(await service.platform.graphql(SCHOOL, { id: created.id }), 'NOT_FOUND', 'school');
      expectExecutionError(await service.platform.graphql(DELETE, { id: created.id }), 'NOT_FOUND', 'deleteSchool');
    });

    it('given a school credential, when deleting, then FORBIDDEN and the school remains', async () => {
      for (const client of [a.admin, await studentOf(a)])
        expectExecutionError(await client.graphql(DELETE, { id: String(a.id) }), 'FORBIDDEN', 'deleteSchool');
      expect(await countRows(schools, eq(schools.id, a.id))).toBe(1);
    });
  });
});
