import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { courses } from '../../src/modules/courses/course.table.js';
import { type ErrorCode, errorCodes } from '../../src/errors/codes.js';
import { codeMessage, LOCALES, localeResources, negotiateLocale } from '../../src/errors/i18n.js';
import { expectFieldError, expectErrorBody } from '../support/rest-assertions.js';
import { type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The API's error messages follow Accept-Language (src/errors/i18n.ts): English (the default, codes.ts),
// Portuguese (Brazil) and Spanish (src/errors/locales/*.json, Rails' wording), on REST and GraphQL.

const CODES = Object.keys(errorCodes) as ErrorCode[];
const COUNTED = CODES.filter((c) => errorCodes[c].message.includes('%{count}'));

describe('the messages of every code', () => {
  it('each code has a message in each locale; a counted code also its form without a count; no locale names a code the table lacks', () => {
    for (const locale of LOCALES) {
      const messages = localeResources[locale].errors;
      for (const code of CODES) expect(messages[code], `${locale}: ${code}`).toMatch(/\S/);
      if (locale !== 'en') for (const code of COUNTED) expect(messages[`${code}_bare`], `${locale}: ${code}_bare`).toMatch(/\S/);
      const known = new Set(CODES.flatMap((c) => [c, `${c}_bare`, `${c}_one`, `${c}_other`]));
      expect(Object.keys(messages).filter((k) => !known.has(k)), locale).toEqual([]);
    }
  });

  it('Portuguese and Spanish are written, not copied from English; a count is interpolated and pluralized', () => {
    for (const code of CODES) {
      expect(codeMessage('pt-BR', code, 5), code).not.toBe(codeMessage('en', code, 5));
      expect(codeMessage('es', code, 5), code).not.toBe(codeMessage('en', code, 5));
      expect(codeMessage('pt-BR', code, 5)).not.toMatch(/%\{|\{\{/);
    }
    expect(codeMessage('pt-BR', 'taken')).toBe('já está em uso');
    expect(codeMessage('pt-BR', 'blank')).toBe('não pode ficar em branco');
    expect(codeMessage('pt-BR', 'invalid')).toBe('não é válido');
    expect(codeMessage('pt-BR', 'too_long', 255)).toBe('é muito longo (máximo: 255 caracteres)');
    expect(codeMessage('pt-BR', 'too_long', 1)).toBe('é muito longo (máximo: 1 caractere)');
    expect(codeMessage('es', 'too_short', 8)).toBe('es demasiado corto (8 caracteres mínimo)');
    expect(codeMessage('es', 'greater_than')).toBe('debe ser mayor');
    expect(codeMessage('en', 'too_long', 3)).toBe('is too long (maximum is 3 characters)');
  });

  it('Accept-Language picks the locale by its q-values: pt, pt-BR, pt-PT read Brazilian Portuguese, es-* Spanish, anything else English', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'en'],
      ['', 'en'],
      ['*', 'en'],
      ['pt-BR', 'pt-BR'],
      ['pt', 'pt-BR'],
      ['pt-PT', 'pt-BR'],
      ['PT-br', 'pt-BR'],
      ['es', 'es'],
      ['es-MX,es;q=0.9', 'es'],
      ['de', 'en'],
      ['de, es;q=0.5', 'es'],
      ['en-US, pt-BR;q=0.9', 'en'],
      ['es;q=0.5, pt;q=0.9', 'pt-BR'],
      ['pt;q=0, es', 'es'],
      [';;q=x,,', 'en'],
    ];
    for (const [header, locale] of cases) expect(negotiateLocale(header), String(header)).toBe(locale);
  });
});

describe('REST and GraphQL replies', () => {
  let service: Service, school: TestSchool;
  twoSchools('Idiomas School', 'Other Idiomas School', (w) => ({ service, school } = w));

  const as = (language: string) => service.client(school.admin.token, { 'accept-language': language });
  let serial = 0;
  async function course(): Promise<number> {
    const [row] = await service.db.insert(courses).values({ schoolId: school.id, name: `Curso ${++serial}` }).returning();
    return row.id;
  }
  const CREATE_SECTION = `mutation ($f: ID, $input: ForumSectionInput!) { createForumSection(forumId: $f, input: $input) { forumSection { id } errors { field code message } } }`;
  const CREATE_CLASS = `mutation ($c: ID!, $input: CourseClassInput!) { createCourseClass(courseId: $c, input: $input) { courseClass { id } errors { field code message } } }`;

  it('pt-BR: a blank field (422) and a taken code (409) over REST read Portuguese, the codes unchanged', async () => {
    const blank = await as('pt-BR').post(`/forums/${school.forumId}/forum_sections`, { forum_section: { description: 'Sem título' } });
    expectFieldError(blank, 422, 'title', 'blank');
    expect(blank.body.errors.title).toEqual(['não pode ficar em branco']);

    const courseId = await course();
    expect((await school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'TURMA-A' } })).status).toBe(201);
    const taken = await as('pt-BR,pt;q=0.9,en;q=0.5').post(`/courses/${courseId}/course_classes`, { course_class: { code: 'TURMA-A' } });
    expectFieldError(taken, 409, 'code', 'taken');
    expect(taken.body.errors.code).toEqual(['já está em uso']);
  });

  it('pt-BR over GraphQL: the payload errors read Portuguese', async () => {
    const pt = as('pt-BR');
    const blank = await pt.graphql(CREATE_SECTION, { f: String(school.forumId), input: { description: 'Sem título' } });
    expect(blank.data.createForumSection.errors).toEqual([{ field: ['title'], code: 'blank', message: 'não pode ficar em branco' }]);
    const courseId = await course();
    await pt.graphql(CREATE_CLASS, { c: String(courseId), input: { code: 'TURMA-B' } });
    const taken = await pt.graphql(CREATE_CLASS, { c: String(courseId), input: { code: 'TURMA-B' } });
    expect(taken.data.createCourseClass.errors).toEqual([{ field: ['code'], code: 'taken', message: 'já está em uso' }]);
  });

  it('es: Spanish on both faces', async () => {
    const rest = await as('es-ES').post(`/forums/${school.forumId}/forum_sections`, { forum_section: { description: 'Sin título' } });
    expect(rest.body.errors.title).toEqual(['no puede estar en blanco']);
    const courseId = await course();
    await school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'CLASE-C' } });
    const taken = await as('es').graphql(CREATE_CLASS, { c: String(courseId), input: { code: 'CLASE-C' } });
    expect(taken.data.createCourseClass.errors).toEqual([{ field: ['code'], code: 'taken', message: 'ya está en uso' }]);
  });

  it('an unknown language, or none, reads English', async () => {
    for (const language of ['de-DE', 'ja, zh;q=0.5', '*']) {
      const rest = await as(language).post(`/forums/${school.forumId}/forum_sections`, { forum_section: { description: 'No title' } });
      expect(rest.body.errors.title, language).toEqual(["can't be blank"]);
      const gql = await as(language).graphql(CREATE_SECTION, { f: String(school.forumId), input: { description: 'No title' } });
      expect(gql.data.createForumSection.errors[0].message, language).toBe("can't be blank");
    }
  });

  it('raised refusals follow too: 404 and 401 on REST and GraphQL; a malformed request keeps its English detail', async () => {
    const missing = await as('pt-BR').get('/forum_sections/999999');
    expectErrorBody(missing, 404);
    expect(missing.body).toEqual({ errors: { base: ['não existe'] }, details: { base: [{ error: 'not_found' }] } });
    const gqlMissing = await as('pt-BR').graphql(`{ forumSection(id: "999999") { id } }`);
    expect(gqlMissing.errors?.[0]).toMatchObject({ message: 'não existe', extensions: { code: 'NOT_FOUND' } });

    const stranger = service.client('not-a-token', { 'accept-language': 'es' });
    const unauthenticated = await stranger.get('/forum_sections/1');
    expectErrorBody(unauthenticated, 401);
    expect(unauthenticated.body.errors.base).toEqual(['Se requiere una credencial válida (Authorization: Bearer <token>)']);
    const gqlUnauthenticated = await stranger.graphql('{ forums { totalCount } }');
    expect(gqlUnauthenticated.errors?.[0]).toMatchObject({ message: 'Se requiere una credencial válida (Authorization: Bearer <token>)', extensions: { code: 'UNAUTHENTICATED' } });

    const noRoute = await as('pt').get('/no_such_things');
    expect(noRoute.body.errors.base).toEqual(['Nenhuma rota corresponde a esta requisição']);

    // Which parameter is malformed is the developer's to read: kept as written.
    const malformed = await as('pt-BR').post(`/forums/${school.forumId}/forum_sections`, {});
    expectErrorBody(malformed, 400);
    expect(malformed.body.errors.forum_section[0]).toMatch(/param is missing/);
  });
});

describe('subscriptions over WebSocket', () => {
  let service: Service, school: TestSchool;
  twoSchools('Sockets Idiomas', 'Other Sockets Idiomas', (w) => ({ service, school } = w));

  it("a subscription's errors follow the Accept-Language of the connection's headers", async () => {
    const url = `${(await service.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
    const ask = async (language: string) => {
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: `Bearer ${school.admin.token}`, 'Accept-Language': language },
        retryAttempts: 0,
        lazy: true,
      });
      try {
        return await new Promise<any>((resolve) => {
          const seen: unknown[] = [];
          client.subscribe(
            { query: 'subscription { messageCreated(channelId: "999999") { id } }' },
            { next: (r) => seen.push(r), error: (e) => resolve(e), complete: () => resolve(seen[0]) },
          );
        });
      } finally {
        await client.dispose();
      }
    };
    const pt = await ask('pt-BR');
    const error = Array.isArray(pt) ? pt[0] : pt.errors[0];
    expect(error).toMatchObject({ message: 'não existe', extensions: { code: 'NOT_FOUND' } });
    const en = await ask('fr');
    expect((Array.isArray(en) ? en[0] : en.errors[0]).message).toBe('Channel not found');
  });
});
