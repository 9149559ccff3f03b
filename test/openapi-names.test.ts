import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { operationNames } from '../src/rest/openapi-names.js';
import type { Route } from '../src/rest/route-table.js';
import { renderOpenApi } from '../src/tools/artifacts.js';

type Operation = { operationId?: string; summary?: string; tags?: string[] };
const document = JSON.parse(await renderOpenApi()) as {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));

describe('the REST reference names every operation', () => {
  it('gives every operation an operationId unique in the document, usable as an identifier', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(operations.filter(({ op }) => !op.operationId?.match(/^[a-z][A-Za-z0-9]*$/)).map((o) => o.at)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('gives every operation a one-sentence summary, none in the GraphQL field form (`Query.activity`)', () => {
    const graphqlForm = /^(Query|Mutation)\.|^[a-z]+[A-Z]\w*$/;
    expect(operations.filter(({ op }) => !op.summary || graphqlForm.test(op.summary) || /\.\s/.test(op.summary)).map((o) => `${o.at}: ${o.op.summary}`)).toEqual([]);
    expect(operations.filter(({ op }) => op.operationId && /^(Query|Mutation)\./.test(op.operationId)).map((o) => o.at)).toEqual([]);
  });

  it('names operations from their method, resource and scope', () => {
    const named = (at: string) => operations.find((o) => o.at === at)?.op;
    expect(named('GET /courses/{course_id}/activities')).toMatchObject({ operationId: 'listCourseActivities', summary: 'List the activities of a course' });
    expect(named('GET /activities/{id}')).toMatchObject({ operationId: 'getActivity', summary: 'Get an activity' });
    expect(named('POST /activities')).toMatchObject({ operationId: 'createActivity', summary: 'Create an activity' });
    expect(named('PATCH /activities/{id}')).toMatchObject({ operationId: 'patchActivity' });
    expect(named('GET /enrollments/{enrollment_id}/activities/{id}')).toMatchObject({ operationId: 'getEnrollmentActivity', summary: 'Get an activity of an enrollment' });
    // An action is named after the GraphQL field it runs; a row may name itself.
    expect(named('POST /integrations/{id}/rotate_secret')?.operationId).toBe('rotateIntegrationSecret');
    expect(named('POST /courses/{id}/duplicate')).toMatchObject({ operationId: 'duplicateCourse', summary: 'Duplicate a course' });
  });

  it('groups operations by the resource of their first path segment, every tag described', () => {
    const tagged = (at: string) => operations.find((o) => o.at === at)?.op.tags;
    expect(tagged('GET /courses/{course_id}/activities')).toEqual(['Courses']);
    // A singular alias path is grouped with its plural.
    expect(tagged('GET /message/{id}')).toEqual(['Messages']);
    const declared = document.tags.map((t) => t.name);
    expect([...new Set(operations.flatMap(({ op }) => op.tags ?? []))].sort()).toEqual(declared);
    expect(document.tags.filter((t) => !t.description)).toEqual([]);
  });

  it('tells apart names that derive alike, each by its own path (stable as routes are added)', () => {
    const route = (path: string): Route => ({ method: 'GET', path, field: 'message', reply: 'show' });
    const ops = ['/messages/{id}', '/message/{id}'].map((key) => ({ method: 'GET' as const, key, route: route(key) }));
    const names = operationNames(ops);
    expect(ops.map((op) => names.get(op)!.operationId)).toEqual(['getMessage', 'getMessageViaMessage']);
    const reversed = operationNames([...ops].reverse());
    expect(ops.map((op) => reversed.get(op)!.operationId)).toEqual(['getMessage', 'getMessageViaMessage']);
  });
});
