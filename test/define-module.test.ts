import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import { Arg, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { AUTHORS, CATALOGUE } from '../src/auth/role-matrix.js';
import { domainOf } from '../src/graphql/error-codes.js';
import { Payload, payload } from '../src/graphql/mutation.js';
import { Checks } from '../src/graphql/validation.js';
import { assembleModules, defineModule } from '../src/modules/define-module.js';
import { modules } from '../src/modules/index.js';
import { param } from '../src/rest/route-table.js';
import { appSchema, routes } from '../src/service-modules.js';
import { Client, type Service, startService } from './support/service.js';

// A module made here, as a new folder would hold it (src/modules/README.md): a type, a resolver, its
// REST rows, its role matrix rows and its error domain, in one declaration. Nothing central names it.

@ObjectType({ description: 'A text said back.' })
class Echo {
  @Field(() => String) text!: string;
  @Field(() => Int) length!: number;
}
const EchoPayload = Payload(Echo, 'echo');

@Resolver()
class EchoResolver {
  @Query(() => Echo, { description: 'Says the text back.' })
  echo(@Arg('text', () => String) text: string): Echo {
    return { text, length: text.length };
  }

  @Mutation(() => EchoPayload, { description: 'Says the text back, if it has 3 characters at least.' })
  shout(@Arg('text', () => String) text: string) {
    return payload('echo', async () => {
      const checks = new Checks();
      if (text.length < 3) checks.add('text', 'too_short', undefined, 3);
      checks.throwIfAny();
      return { text: text.toUpperCase(), length: text.length };
    });
  }
}

const echoModule = defineModule({
  name: 'echo',
  resolvers: [EchoResolver],
  routes: [
    { method: 'GET', path: '/echo', field: 'echo', args: { text: param('text') }, reply: 'show' },
    { method: 'POST', path: '/echo/shout', field: 'shout', args: { text: param('text') }, reply: 'action' },
  ],
  rules: { operations: { content: { 'Query.echo': CATALOGUE, 'Mutation.shout': AUTHORS } } },
  errors: { name: 'Echo', nodes: ['Echo'], codes: ['too_short'] },
});

describe('a module declares itself', () => {
  let service: Service;
  let app: FastifyInstance;
  let admin: Client;
  /** An integration's credential: the catalogue's reader, not an author. */
  let integration: Client;
  beforeAll(async () => {
    service = await startService();
    const school = await service.school('Echo school');
    app = await createApp({ database: service.database, now: service.clock.now, rateLimit: { enabled: false }, modules: [...modules, echoModule] });
    await app.ready();
    admin = new Client(app, school.admin.token);
    integration = new Client(app, (await service.token('app', school.id)).token);
  });
  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it('given a module added to the list, then GraphQL serves its fields with its rows of the role matrix and its error domain', async () => {
    expect((await integration.graphql('{ echo(text: "hi") { text length } }')).data).toEqual({ echo: { text: 'hi', length: 2 } });
    const refused = await integration.graphql('mutation { shout(text: "hey") { echo { text } } }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await new Client(app, null).graphql('{ echo(text: "hi") { text } }')).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const short = await admin.graphql('mutation { shout(text: "hi") { echo { text } errors { __typename field code } } }');
    expect(short.data.shout).toEqual({ echo: null, errors: [{ __typename: 'EchoError', field: ['text'], code: 'too_short' }] });
    const loud = await admin.graphql('mutation { shout(text: "hey") { echo { text length } errors { code } } }');
    expect(loud.data.shout).toEqual({ echo: { text: 'HEY', length: 3 }, errors: [] });
  });

  it('given its REST rows, then REST serves them through the same guard', async () => {
    const shown = await integration.get('/echo?text=hi');
    expect([shown.status, shown.body]).toEqual([200, { text: 'hi', length: 2 }]);
    const short = await admin.post('/echo/shout', { text: 'hi' });
    expect([short.status, short.body.details]).toEqual([422, { text: [{ error: 'too_short' }] }]);
    expect((await integration.post('/echo/shout', { text: 'hey' })).status).toBe(403);
  });

  it("the service's own schema and routes hold none of it", async () => {
    expect((await appSchema()).getQueryType()!.getFields().echo).toBeUndefined();
    expect(routes.some((route) => route.path.startsWith('/echo'))).toBe(false);
  });

  it('a root field without a row of the role matrix, or a row of no field, stops the assembly and names the module', () => {
    @Resolver()
    class UnruledResolver {
      @Query(() => String)
      unruled(): string {
        return 'served to whom?';
      }
    }
    expect(() => assembleModules([...modules, defineModule({ name: 'unruled', resolvers: [UnruledResolver] })])).toThrow(
      'The module unruled serves Query.unruled without a row of the role matrix: add it to rules.operations in src/modules/unruled/index.ts',
    );
    const stray = defineModule({ name: 'stray', resolvers: [], rules: { operations: { content: { 'Query.nothing': CATALOGUE } } } });
    expect(() => assembleModules([...modules, stray])).toThrow("The module stray's rules name Query.nothing, which none of its resolvers serves");
    const twice = defineModule({ name: 'twice', resolvers: [], rules: { operations: { content: {} } } });
    expect(() => assembleModules([...modules, twice, twice])).toThrow('Two modules are named twice');
  });

  it('a payload whose module declares no error domain has none', () => {
    expect(() => domainOf('StrayPayload', 'Stray')).toThrow("No error domain for the payload StrayPayload (of Stray): name it in its module's errors (defineModule)");
    expect(domainOf('EchoPayload', 'Echo').name).toBe('Echo');
  });
});
