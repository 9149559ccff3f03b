import type { FastifyInstance } from 'fastify';
import {
  getIntrospectionQuery,
  type GraphQLInputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { config } from '../src/config.js';
import { costVariables, type GraphqlLimits, measureQuery, priceOperation, queryCost, resolveLimits } from '../src/graphql/limits.js';
import { appSchema, routes } from '../src/service-modules.js';
import { compileRoute } from '../src/rest/compile.js';
import { Client, type Service, startService, type TestSchool } from './support/service.js';

// GraphQL resource limits (graphql/limits.ts): the cost model, each limit at its boundary on a
// service with small limits, the defaults against the attacks of issue 10, introspection's
// switch, and the REST layer's own compiled operations within the limits.

let service: Service;
let school: TestSchool;
let schema: GraphQLSchema;
const apps: FastifyInstance[] = [];

/** A second service over the same database, with its own GraphQL limits. */
async function serviceWith(graphqlLimits: Partial<GraphqlLimits>): Promise<FastifyInstance> {
  const app = await createApp({ database: service.database, now: service.clock.now, rateLimit: { enabled: false }, graphqlLimits });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  service = await startService();
  school = await service.school('Limits School');
  schema = await appSchema();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await service?.stop();
});

const cost = (query: string, variables?: Record<string, unknown>) => queryCost(schema, parse(query), variables);
const codeOf = (reply: { errors?: any[] }) => reply.errors?.[0]?.extensions?.code;

/** The cycle of issue 10: course { paths { courses { paths ... } } }, `depth` levels counting the leaf. */
function cycle(depth: number): string {
  let inner = 'id';
  for (let level = depth - 1; level >= 2; level--) inner = `${level % 2 === 0 ? 'paths' : 'courses'} { ${inner} }`;
  return `course(id: $id) { ${inner} }`;
}

describe('the cost of a query', () => {
  it('given variables that only say what to read (an id), when a document is priced again with new ones, then it is priced by the variables of its pages and directives, and the others are still checked to fit', () => {
    const document = parse('query Q($id: ID!, $n: Int = 3, $withSchools: Boolean!) { course(id: $id) { id } schools(first: $n) @include(if: $withSchools) { nodes { id } } }');
    expect(costVariables(document)).toEqual(['n', 'withSchools']);
    const price = (variables: Record<string, unknown>) => priceOperation(schema, document, variables, undefined, resolveLimits()).requested;
    expect(price({ id: '1', n: 5, withSchools: true })).toBe(1 + 1 + 5);
    // A new id: the same price (remembered), as queryCost computes it afresh.
    expect(price({ id: '2', n: 5, withSchools: true })).toBe(1 + 1 + 5);
    expect(queryCost(schema, document, { id: '2', n: 5, withSchools: true })).toBe(1 + 1 + 5);
    expect(price({ id: '3', n: 7, withSchools: true })).toBe(1 + 1 + 7);
    expect(price({ id: '4', n: 7, withSchools: false })).toBe(1);
    // An absent page size takes its default (3); a null one is no size (25): not the same price.
    expect(price({ id: '6', withSchools: true })).toBe(1 + 1 + 3);
    expect(price({ id: '7', n: null, withSchools: true })).toBe(1 + 1 + 25);
    expect(price({ id: '8', withSchools: true })).toBe(1 + 1 + 3);
    // Variables that do not fit are refused (null) even when their page and directive were priced before.
    expect(price({ id: { not: 'an id' }, n: 5, withSchools: true })).toBeNull();
    expect(price({ n: 5, withSchools: true })).toBeNull();
    expect(price({ id: '5', n: 'five', withSchools: true })).toBeNull();
  });

  it('given a connection, when it is priced, then it costs its page size times its selection (first defaults to 25)', () => {
    expect(cost('{ schools { nodes { id } } }')).toBe(1 + 25);
    expect(cost('{ schools(first: 10) { totalCount pageInfo { hasNextPage } nodes { id name } } }')).toBe(1 + 10);
    // edges { node } is the same page as nodes.
    expect(cost('{ schools(first: 10) { edges { cursor node { id } } } }')).toBe(1 + 10);
    expect(cost('{ schools(first: 0) { totalCount } }')).toBe(1);
  });

  it('given page, when it is priced, then perPage is the page size (10 by default); a page over 100 counts as 100', () => {
    expect(cost('{ schools(page: 2) { nodes { id } } }')).toBe(1 + 10);
    expect(cost('{ schools(page: 1, perPage: 40) { nodes { id } } }')).toBe(1 + 40);
    expect(cost('{ schools(perPage: 40) { nodes { id } } }')).toBe(1 + 25);
    expect(cost('{ schools(first: 1000) { nodes { id } } }')).toBe(1 + 100);
  });

  it('given nested connections, variables and fragments, when priced, then the pages multiply', () => {
    expect(cost('{ schools(first: 10) { nodes { schoolProducts(first: 5) { nodes { id } } } } }')).toBe(1 + 10 * (1 + 1 + 5));
    expect(cost('query ($n: Int) { schools(first: $n) { nodes { id } } }', { n: 7 })).toBe(1 + 7);
    expect(cost('{ schools(first: 2) { nodes { ...S } } } fragment S on School { organization { id } }')).toBe(1 + 2 * (1 + 1));
    expect(cost('query ($skip: Boolean!) { schools(first: 2) { nodes { organization @skip(if: $skip) { id } } } }', { skip: true })).toBe(1 + 2);
  });

  it('given plain lists, when priced, then each counts 2 items, and one that returns to a type on its path counts 25', () => {
    expect(cost('{ course(id: 1) { modules { id } } }')).toBe(1 + 2 * 1);
    expect(cost('{ course(id: 1) { modules { lessons { id } } } }')).toBe(1 + 2 * (1 + 2 * 1));
    // course → paths → courses returns to Course: every return fans out again.
    expect(cost('{ course(id: 1) { paths { courses { id } } } }')).toBe(1 + 2 * (1 + 25 * 1));
    expect(cost('query ($id: ID!) { c: ' + cycle(12) + ' }', { id: 1 })).toBeGreaterThan(config.graphql.maxCost);
  });

  it('given a document, when measured, then depth counts nested fields with fragments flattened, and aliases and directives are counted', () => {
    const shape = measureQuery(schema, parse('{ a: schools @include(if: true) { nodes { ...S } } } fragment S on School { b: organization { id } }'));
    expect(shape).toMatchObject({ depth: 4, aliases: 2, directives: 1, introspects: false });
  });

  it("given a document of several operations, when measured, then each count is its largest operation's, and no count leaks into another document", () => {
    const two = parse('query A { a: schools { nodes { id } } } query B { x: schools @skip(if: false) { y: totalCount z: nodes { organization { id } } } }');
    const small = parse('{ __schema { queryType { name } } }');
    expect(measureQuery(schema, two)).toMatchObject({ depth: 4, aliases: 3, directives: 1, introspects: false });
    // Each measurement counts into its own shape (graphql-armor's onAccept, per document): none is shared.
    expect(measureQuery(schema, small)).toMatchObject({ depth: 0, aliases: 0, directives: 0, introspects: true });
    expect(measureQuery(schema, parse('query A { a: schools { nodes { id } } }'))).toMatchObject({ depth: 3, aliases: 1, directives: 0 });
  });
});

describe('each limit at its boundary', () => {
  const limits = { maxDepth: 4, maxAliases: 3, maxDirectives: 3, maxTokens: 60, maxCost: 60 };
  let admin: Client;
  beforeAll(async () => {
    admin = new Client(await serviceWith(limits), school.admin.token);
  });

  async function passes(query: string, variables?: Record<string, unknown>) {
    const reply = await admin.graphql(query, variables);
    expect(reply.errors).toBeUndefined();
    expect(reply.status).toBe(200);
    expect(reply.data).toBeTruthy();
    return reply;
  }
  async function refused(query: string, code: string, variables?: Record<string, unknown>) {
    const reply = await admin.graphql(query, variables);
    expect(reply.status).toBe(400);
    expect(reply.errors).toHaveLength(1);
    expect(codeOf(reply)).toBe(code);
    expect(reply.data).toBeUndefined();
    expect((reply as any).extensions.cost.maximum).toBe(limits.maxCost);
    return reply;
  }

  it('depth: 4 levels pass, 5 are refused with QUERY_TOO_DEEP', async () => {
    await passes('{ schoolProducts(first: 1) { nodes { school { id } } } }');
    const reply = await refused('{ schoolProducts(first: 1) { nodes { school { organization { id } } } } }', 'QUERY_TOO_DEEP');
    expect(reply.errors![0].message).toBe('The query nests 5 levels deep; at most 4 are allowed');
    expect(reply.errors![0].extensions).toMatchObject({ limit: 4, found: 5 });
  });

  it('aliases: 3 pass, 4 are refused with TOO_MANY_ALIASES', async () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: schoolProducts(first: 1) { totalCount }`).join(' ')} }`;
    await passes(aliased(3));
    const reply = await refused(aliased(4), 'TOO_MANY_ALIASES');
    expect(reply.errors![0].message).toBe('The query uses 4 aliases; at most 3 are allowed');
  });

  it('directives: 3 pass, 4 are refused with TOO_MANY_DIRECTIVES', async () => {
    const base = '{ schoolProducts(first: 1) @include(if: true) { totalCount @skip(if: false) nodes @include(if: true) { id } ';
    await passes(`${base} } }`);
    const reply = await refused(`${base} pageInfo @skip(if: false) { hasNextPage } } }`, 'TOO_MANY_DIRECTIVES');
    expect(reply.errors![0].message).toBe('The query uses 4 directives; at most 3 are allowed');
  });

  it('tokens: 60 pass, 61 are refused with QUERY_TOO_LARGE', async () => {
    // `{ schoolProducts ( first : 1 ) { totalCount } }` is 11 tokens; each __typename adds one.
    const tokens = (n: number) => `{ schoolProducts(first: 1) { totalCount ${'__typename '.repeat(n - 11)}} }`;
    await passes(tokens(60));
    const reply = await refused(tokens(61), 'QUERY_TOO_LARGE');
    expect(reply.errors![0].message).toBe('The query has more than 60 tokens; send a smaller document');
    expect((reply as any).extensions.cost).toEqual({ requested: null, maximum: 60 });
  });

  it('cost: 60 passes, 61 is refused with QUERY_TOO_COMPLEX, the variables deciding', async () => {
    const query = 'query ($n: Int) { schoolProducts(first: $n) { nodes { id } } }';
    const ok = await passes(query, { n: 59 });
    // What ran also reports what it used (graphql/budget.ts; test/budget.test.ts).
    expect((ok as any).extensions.cost).toMatchObject({ requested: 60, maximum: 60, objects: 1 });
    const reply = await refused(query, 'QUERY_TOO_COMPLEX', { n: 60 });
    expect(reply.errors![0].message).toMatch(/^The query may cost 61; at most 60 is allowed\./);
    expect((reply as any).extensions.cost).toEqual({ requested: 61, maximum: 60 });
  });

  it('a refused query sends no SQL statement: none without a credential, none beyond the credential check with one', async () => {
    const anonymous = new Client(apps[0], null);
    const tooCostly = '{ schoolProducts(first: 100) { nodes { id } } }';
    let reply: any;
    expect(await service.countStatements(async () => (reply = await anonymous.graphql(tooCostly)))).toBe(0);
    expect(codeOf(reply)).toBe('QUERY_TOO_COMPLEX');
    const credentialOnly = await service.countStatements(() => admin.graphql('{ __typename }'));
    expect(await service.countStatements(async () => (reply = await admin.graphql(tooCostly)))).toBe(credentialOnly);
    expect(codeOf(reply)).toBe('QUERY_TOO_COMPLEX');
    expect(await service.countStatements(() => admin.graphql('{ schoolProducts(first: 1) { nodes { school { organization { id } } } } }'))).toBe(credentialOnly);
  });
});

describe('extensions.cost on every reply', () => {
  it('given a normal query, a refused one, an invalid one and a malformed one, then each reply reports the cost and the maximum', async () => {
    const maximum = config.graphql.maxCost;
    const normal: any = await school.admin.graphql('{ schoolProducts(first: 4) { nodes { id } } }');
    expect(normal.errors).toBeUndefined();
    expect(normal.extensions.cost).toMatchObject({ requested: 5, maximum, objects: 1 });

    const failing: any = await school.admin.graphql('{ course(id: 999999) { id } }');
    expect(failing.errors).toHaveLength(1);
    expect(failing.extensions.cost).toMatchObject({ requested: 1, maximum, objects: 0 });

    const tooCostly: any = await school.admin.graphql('{ schools(first: 100) { nodes { schoolProducts(first: 100) { nodes { topics { id } } } } } }');
    expect(codeOf(tooCostly)).toBe('QUERY_TOO_COMPLEX');
    expect(tooCostly.extensions.cost).toEqual({ requested: 1 + 100 * (1 + 1 + 100 * (1 + 2)), maximum });

    const invalid: any = await school.admin.graphql('{ schoolProducts { nope } }');
    expect(codeOf(invalid)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(invalid.extensions.cost).toEqual({ requested: null, maximum });

    const malformed: any = await school.admin.graphql('{ schoolProducts { ');
    expect(codeOf(malformed)).toBe('GRAPHQL_PARSE_FAILED');
    expect(malformed.extensions.cost).toEqual({ requested: null, maximum });
  });

  it('given replies refused before the pipeline (a bad credential, a body that is not a request), then they report a cost of 0', async () => {
    const maximum = config.graphql.maxCost;
    const forged = await service.client('lp_admin_forged').post('/graphql', { query: '{ schools { totalCount } }' });
    expect(forged.status).toBe(401);
    expect(forged.body.extensions.cost).toEqual({ requested: 0, maximum });
    const notJson = await school.admin.request('POST', '/graphql', undefined, { raw: '{"query": ', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0].extensions.code).toBeDefined();
    expect(notJson.body.extensions.cost).toEqual({ requested: 0, maximum });
  });
});

describe('the default limits', () => {
  it('are the documented ones', () => {
    expect(config.graphql).toEqual({
      maxDepth: 12,
      maxAliases: 30,
      maxDirectives: 50,
      maxTokens: 5000,
      maxCost: 25000,
      maxObjects: 50_000,
      maxResultBytes: 32 * 1024 * 1024,
      timeoutMs: 10_000,
      introspection: true,
    });
  });

  it('refuse the attacks of issue 10 before they run', async () => {
    const attack = async (query: string) => {
      let reply: any;
      const statements = await service.countStatements(async () => (reply = await school.admin.graphql(query, { id: 1 })));
      expect(reply.status).toBe(400);
      expect(reply.data).toBeUndefined();
      // The credential check is all the database sees.
      expect(statements).toBeLessThanOrEqual(await service.countStatements(() => school.admin.graphql('{ __typename }')));
      return codeOf(reply);
    };
    // Depth 20 through the path cycle.
    expect(await attack(`query ($id: ID!) { ${cycle(20)} }`)).toBe('QUERY_TOO_DEEP');
    // The cycle 12 deep: refused by its cost with no alias at all, and under 1,000 aliases by the document's size.
    expect(await attack(`query ($id: ID!) { ${cycle(12)} }`)).toBe('QUERY_TOO_COMPLEX');
    expect(await attack(`query ($id: ID!) { ${Array.from({ length: 1000 }, (_, i) => `a${i}: ${cycle(12)}`).join(' ')} }`)).toBe('QUERY_TOO_LARGE');
    // Within the alias limit, the cycle 10 deep under 30 aliases is still too costly.
    expect(await attack(`query ($id: ID!) { ${Array.from({ length: 30 }, (_, i) => `a${i}: ${cycle(10)}`).join(' ')} }`)).toBe('QUERY_TOO_COMPLEX');
    expect(await attack(`query ($id: ID!) { ${Array.from({ length: 31 }, (_, i) => `a${i}: course(id: $id) { id }`).join(' ')} }`)).toBe('TOO_MANY_ALIASES');
    // A document of nearly 1 MB (the body limit) of expensive aliases.
    const expensive = 'schoolProducts(first: 100) { nodes { courses { modules { lessons { id } } } } }';
    const huge = `{ ${Array.from({ length: 12_000 }, (_, i) => `a${i}: ${expensive}`).join(' ')} }`;
    expect(huge.length).toBeGreaterThan(900_000);
    expect(await attack(huge)).toBe('QUERY_TOO_LARGE');
  });

  it('let the deepest queries of the suite and the playground introspection through', async () => {
    const legitimate = [
      // test/courses.graphql.test.ts: the nested content, 9 levels.
      '{ schoolProducts(first: 100) { nodes { id courses { id modules { id lessons { id activities { id questions { id options { id } } } } } } } } }',
      // The same through edges { node }: 10 levels, as Relay clients write it.
      '{ schoolProducts(first: 100) { edges { node { id courses { id modules { id lessons { id activities { id questions { id options { id } } } } } } } } } }',
      // test/batching.test.ts.
      '{ schools(first: 50) { totalCount nodes { id name domains organization { id } schoolProducts(first: 50) { totalCount nodes { id title categoryIds school { id } topics { id title } } } } } }',
      // test/paths.graphql.test.ts and test/extra-contents.graphql.test.ts.
      '{ schoolProducts(first: 100) { nodes { id paths { id courses { id } } } } }',
      '{ schoolProducts(first: 100) { nodes { extraContents { id media { id } } courses { extraContents { id } modules { lessons { extraContents { id media { title } } } } } } } }',
      getIntrospectionQuery(),
    ];
    for (const query of legitimate) {
      const reply: any = await service.platform.forSchool(school.id).graphql(query);
      expect(reply.errors, query).toBeUndefined();
      expect(reply.extensions.cost.requested, query).toBeLessThanOrEqual(config.graphql.maxCost);
    }
  });
});

describe('introspection', () => {
  it('is on by default', async () => {
    const reply: any = await service.anonymous.graphql('{ __schema { queryType { name } } }');
    expect(reply.data.__schema.queryType.name).toBe('Query');
  });

  it('given GRAPHQL_INTROSPECTION=false, then __schema and __type are refused, __typename still answers, and no field names are suggested', async () => {
    const closed = new Client(await serviceWith({ introspection: false }), school.admin.token);
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "School") { name } }', '{ schoolProducts(first: 1) { nodes { ... on SchoolProduct { id } } } __type(name: "School") { name } }']) {
      const reply: any = await closed.graphql(query);
      expect(reply.status).toBe(400);
      expect(codeOf(reply)).toBe('INTROSPECTION_DISABLED');
      expect(reply.errors[0].message).toBe('Introspection is disabled on this service');
    }
    expect((await closed.graphql('{ __typename }')).data).toEqual({ __typename: 'Query' });
    const typo: any = await closed.graphql('{ schoolProduct { id } }');
    expect(codeOf(typo)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(typo.errors[0].message).not.toMatch(/Did you mean/);
  });
});

describe('configuration', () => {
  it('reads the limits from the environment', async () => {
    vi.stubEnv('GRAPHQL_INTROSPECTION', 'false');
    vi.stubEnv('GRAPHQL_MAX_DEPTH', '7');
    try {
      // A fresh instance of the config module alone (resetting every module would load a second schema into this worker).
      const fresh = await import('../src/config.js?environment=stubbed');
      expect(fresh.config.graphql).toMatchObject({ introspection: false, maxDepth: 7, maxCost: 25000 });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses to start with a limit that is not a whole number, naming the variable', () => {
    expect(() => resolveLimits({ maxDepth: Number('twelve') })).toThrow('GRAPHQL_MAX_DEPTH must be a whole number of at least 1 (got NaN)');
    expect(() => resolveLimits({ maxCost: 0 })).toThrow(/GRAPHQL_MAX_COST/);
    expect(resolveLimits({ maxAliases: 5 })).toEqual({ ...config.graphql, maxAliases: 5 });
  });
});

/** A value of a required variable's type: the cost does not depend on it, only its coercion must succeed. */
function sampleOf(type: GraphQLInputType): unknown {
  if (!isNonNullType(type)) return undefined;
  const inner = type.ofType;
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (isInputObjectType(inner))
    return Object.fromEntries(Object.values(inner.getFields()).flatMap((f) => (isNonNullType(f.type) ? [[f.name, sampleOf(f.type)]] : [])));
  return { ID: '1', String: 'x', Int: 1, Float: 1, Boolean: true }[inner.name as 'ID'] ?? '1';
}

describe('the REST layer', () => {
  it('every compiled operation, with the largest pages the router asks for, is within the default limits', () => {
    const limits = config.graphql;
    let deepest = 0;
    let costliest = 0;
    for (const route of routes) {
      const compiled = compileRoute(schema, route);
      const operation = compiled.document.definitions[0] as OperationDefinitionNode;
      const required = Object.fromEntries(
        (operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, sampleOf(typeFromAST(schema, v.type as any) as GraphQLInputType)]),
      );
      // The router walks whole lists with first: 100 and serves pages of at most per_page=100.
      const pages = compiled.paged ? [{ first: 100 }, { page: 1, perPage: 100 }] : [{}];
      const label = `${route.method} ${route.path}`;
      const shape = measureQuery(schema, compiled.document);
      expect(shape.depth, label).toBeLessThanOrEqual(limits.maxDepth);
      expect(shape.aliases, label).toBeLessThanOrEqual(limits.maxAliases);
      expect(shape.directives, label).toBeLessThanOrEqual(limits.maxDirectives);
      for (const page of pages) {
        const price = queryCost(schema, compiled.document, { ...required, ...page });
        expect(price, label).toBeLessThanOrEqual(limits.maxCost);
        costliest = Math.max(costliest, price);
      }
      deepest = Math.max(deepest, shape.depth);
    }
    expect(routes.length).toBeGreaterThan(170);
    expect(deepest).toBeGreaterThanOrEqual(3);
    expect(costliest).toBeGreaterThanOrEqual(101);
  });
});
