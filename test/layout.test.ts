import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/client.js';

/** Every .ts file under a folder, as paths relative to the project root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)))
    .sort();
}

/** The module specifiers a file imports or re-exports (static, side-effect and dynamic imports). */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/**
 * The files of src/ each file imports through a relative specifier (`./x.js` is `./x.ts`).
 * Type-only imports count: `import type` ties two files' shapes as surely as a value import ties
 * their code, and the issue's circles (credential ↔ school.state, egress ↔ context) were type-only
 * on one side.
 */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(readFileSync(join(projectRoot, file), 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => join(dirname(file), specifier.replace(/\.js$/, '.ts')))
      .filter((target) => existsSync(join(projectRoot, target)));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of more than one file (or a file importing itself), each sorted. */
export function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const RESOLVER = /\.resolver(\.js|\.ts)?$/;
const MODULE_INDEX = /^src\/modules\/[^/]+\/index\.ts$/;

/** The layers of src/, low to high (src/modules/README.md). */
const LAYERS = ['config', 'lib', 'errors', 'db', 'auth', 'content', 'http', 'graphql', 'rest', 'modules', 'service', 'tools'] as const;
type Layer = (typeof LAYERS)[number];

/** A file's layer: its folder under src/; src/config.ts alone at the bottom; src/*.ts assemble the service; every *.table.ts is data. */
function layerOf(file: string): Layer {
  if (file.endsWith('.table.ts')) return 'db';
  const [, top, ...rest] = file.split('/');
  if (rest.length === 0) return top === 'config.ts' ? 'config' : 'service';
  return top as Layer;
}

/**
 * The imports allowed to run upward, each with its reason. GraphQL subscriptions listen on the
 * events module's bus: the bus is the events module's (it publishes what emitEvent wrote).
 */
const UPWARD_EXCEPTIONS = ['src/graphql/subscriptions.ts -> src/modules/events/event-bus.ts'];

describe('layout', () => {
  it('finds the imports it looks for (static, re-export, side effect, dynamic)', () => {
    const text = [
      "import { A } from './a.resolver.js';",
      "export { B } from '../b/b.resolver.js';",
      "import './c.resolver.js';",
      "const d = await import('./d.resolver.js');",
      "import type { E } from './e.rules.js';",
    ].join('\n');
    expect(importsOf(text).filter((s) => RESOLVER.test(s)).sort()).toEqual(['../b/b.resolver.js', './a.resolver.js', './c.resolver.js', './d.resolver.js']);
  });

  it("no file of src/ but a module's index.ts imports a *.resolver.ts (rules live in *.rules.ts, *.state.ts, *.type.ts)", () => {
    const files = sourceFiles('src');
    expect(files.some((f) => f.endsWith('.resolver.ts'))).toBe(true);
    const offenders = files
      .filter((file) => !MODULE_INDEX.test(file))
      .flatMap((file) =>
        importsOf(readFileSync(join(projectRoot, file), 'utf8'))
          .filter((specifier) => RESOLVER.test(specifier))
          .map((specifier) => `${file} imports ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });

  // Every variable is read and checked once, by src/config.ts's zod schema: a bad value stops start-up in one line, not a request later.
  it('no file of src/ but src/config.ts reads the environment', () => {
    const reads = /\bprocess\s*(?:\??\.\s*env\b|\[\s*['"`]env)|\bfrom\s+['"](?:node:)?process['"]/;
    const readers = sourceFiles('src').filter((file) => reads.test(readFileSync(join(projectRoot, file), 'utf8')));
    expect(readers).toEqual(['src/config.ts']);
    for (const text of ['process.env.X', 'process?.env', "process['env']", "import { env } from 'node:process';"]) expect(reads.test(text), text).toBe(true);
  });

  // An ESM import of node:http builds the module's namespace, which runs its lazy WebSocket getter:
  // Node loads undici (fetch) at start-up, about 100 ms. Its values are read with process.getBuiltinModule.
  it('no file of src/ imports values from node:http (type-only imports are erased)', () => {
    const valueImport = /^import\s+(?!type\b)[^;]*?\bfrom\s+['"](?:node:)?http['"]/m;
    const importers = sourceFiles('src').filter((file) => valueImport.test(readFileSync(join(projectRoot, file), 'utf8')));
    expect(importers).toEqual([]);
    expect(valueImport.test("import { STATUS_CODES } from 'node:http';")).toBe(true);
    expect(valueImport.test("import http from 'http';")).toBe(true);
    expect(valueImport.test("import type { IncomingMessage } from 'node:http';")).toBe(false);
  });

  // src/errors/reply.ts writes every error reply (REST, GraphQL over HTTP, a GraphQL error, a raw socket, a WebSocket close).
  it('no file of src/ but src/errors/reply.ts writes an error reply', () => {
    const writers = [
      /\berrorBody\s*\(/, // REST's error body
      /\.code\(\s*(?:[45]\d\d\b|status\b|[\w.]*\.status\b)/, // a Fastify reply given an error status
      /HTTP\/1\.[01] [1-5]\d\d/, // a response written on a raw socket
      /\.close\(\s*(?:\{\s*code:|4\d{3}\b)/, // a WebSocket close frame
      /errors:\s*\[\s*\{\s*message/, // GraphQL's error body
      /extensions:\s*\{\s*code:\s*'(?!GRAPHQL_PARSE_FAILED'|GRAPHQL_VALIDATION_FAILED')/, // a GraphQL error with a code of its own
    ];
    const samples = [
      'reply.code(404).send(x)',
      'reply.code(status)',
      'reply.code(error.status)',
      'errorBody(rows)',
      "socket.end('HTTP/1.1 429 Too Many Requests')",
      'state.close({ code: 4401, reason })',
      'ws.close(4403, reason)',
      "reply.send({ errors: [{ message, extensions: { code: 'X' } }] })",
      "new GraphQLError(m, { extensions: { code: 'BAD_REQUEST' } })",
    ];
    for (const text of samples) expect(writers.some((w) => w.test(text)), text).toBe(true);
    for (const text of ['reply.code(204).send()', 'reply.code(created ? 201 : 200)', "new GraphQLError(m, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })"])
      expect(writers.some((w) => w.test(text)), text).toBe(false);
    const offenders = sourceFiles('src')
      .filter((file) => !file.startsWith('src/errors/'))
      .flatMap((file) =>
        readFileSync(join(projectRoot, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (writers.some((w) => w.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  // The service is assembled from the modules' declarations at its top (src/service-modules.ts): no layer below reads a declaration.
  it("no file in a folder of src/ but the module list imports a module's index.ts or the module list (src/*.ts assemble them)", () => {
    const declarations = /^src\/modules\/(?:[^/]+\/)?index\.ts$/;
    const offenders = sourceFiles('src')
      .filter((file) => file !== 'src/modules/index.ts' && file.includes('/', 'src/'.length))
      .flatMap((file) =>
        importsOf(readFileSync(join(projectRoot, file), 'utf8'))
          .filter((specifier) => specifier.startsWith('.') && declarations.test(join(dirname(file), specifier.replace(/\.js$/, '.ts'))))
          .map((specifier) => `${file} imports ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });

  it('finds import circles (a three-file ring, a pair, a self-import) and nothing in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['e']],
      ['e', ['d', 'f']],
      ['f', []],
      ['g', ['g']],
      ['h', ['a', 'f']],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c'], ['d', 'e'], ['g']]);
  });

  // A circle means neither file can be understood, tested or moved without the other; break one by
  // moving the shared piece down (auth/school-gate.ts, egress's EgressScope, content-release's EnrollmentScope).
  it('src/ has no import circle (type-only imports included)', () => {
    const graph = importGraph(sourceFiles('src'));
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(circlesOf(graph).map((circle) => circle.join(' ↔ '))).toEqual([]);
  });

  // Tenancy is decided in one module: every other file asks it (inSchool, inSchoolScope, writeSchool,
  // ownRows...) and never reads the request's scope or compares a school id with the request's itself.
  it('no file of src/ but src/auth/tenancy.ts builds a school predicate from the request', () => {
    const helpers = '(?:writeSchool|oneSchool|schoolScope|guardedSchool)';
    const builders = [
      /\b(?:ctx|context|c|access|request)\??\.scope\b/, // reads the request's scope
      /\{[^{}]*\bscope\b[^{}]*\}\s*=\s*(?:ctx|context|c|access|request)\b/, // destructures it
      new RegExp(`${helpers}\\([^)]*\\)\\s*[!=]==?(?!=)\\s*(?!\\s|null\\b|undefined\\b|')|[\\w.]+\\s*[!=]==?\\s*${helpers}\\(`), // compares a school id with the request's
      new RegExp(`\\beq\\(\\s*[\\w.]+\\s*,\\s*${helpers}\\(`), // the request's school as SQL
      /credential[?!]?\.schoolId\s*[!=]==?|[!=]==?\s*[\w.]*credential[?!]?\.schoolId|\beq\([^()]*credential[?!]?\.schoolId/, // the credential's school as a condition
    ];
    const samples = [
      'const visible = ids.filter((id) => id === ctx.scope.id);',
      'const { scope } = ctx;',
      'if (row.schoolId !== oneSchool(ctx)) throw notFound();',
      'if (writeSchool(ctx) === row.schoolId) return row;',
      '.where(eq(table.schoolId, writeSchool(ctx)))',
      'rows.filter((r) => r.schoolId === ctx.credential?.schoolId)',
      'and(eq(courses.id, id), eq(courses.schoolId, ctx.credential!.schoolId!))',
    ];
    for (const text of samples) expect(builders.some((b) => b.test(text)), text).toBe(true);
    for (const text of ["if (oneSchool(ctx) === null) throw e;", "if (schoolScope(ctx) === 'none') throw e;", 'and(eq(t.id, id), inSchool(ctx, t.schoolId))', 'k.scope.activatedAt'])
      expect(builders.some((b) => b.test(text)), text).toBe(false);
    const files = sourceFiles('src').filter((file) => {
      const text = readFileSync(join(projectRoot, file), 'utf8');
      return builders.some((b) => b.test(text));
    });
    expect(files).toEqual(['src/auth/tenancy.ts']);
  });

  // The layers of src/, low to high: a file imports its own layer or lower ones, so a change low down
  // is read without the code above it. Tables are the data model every layer reads (drizzle's schema).
  it('imports run from a higher layer to a lower one, but for the listed exceptions', () => {
    const files = sourceFiles('src');
    const upward = [...importGraph(files)].flatMap(([file, targets]) =>
      targets.filter((target) => LAYERS.indexOf(layerOf(file)) < LAYERS.indexOf(layerOf(target))).map((target) => `${file} -> ${target}`),
    );
    expect(new Set(files.map(layerOf))).toEqual(new Set(LAYERS));
    expect(UPWARD_EXCEPTIONS.length).toBeLessThanOrEqual(8);
    expect(upward.sort()).toEqual(UPWARD_EXCEPTIONS);
  });

  it('places files in their layers (tables in the data layer wherever they live)', () => {
    expect(
      ['src/config.ts', 'src/lib/remembered.ts', 'src/errors/codes.ts', 'src/modules/users/user.table.ts', 'src/auth/tenancy.ts', 'src/content/scope.ts', 'src/http/logging.ts', 'src/graphql/context.ts', 'src/rest/router.ts', 'src/modules/courses/index.ts', 'src/app.ts', 'src/tools/cli.ts'].map(layerOf),
    ).toEqual(LAYERS);
  });

  // The domain modules tie few pairs by imports: 70 of the 231 pairs of 22 modules when issue 25 closed
  // (75 before it; the review counted 110 of 253 by another reading). A new tie is a choice to make here.
  // Issue 26's identity ties three (users: the people who sign in; events: what it emits; auth-tokens:
  // the revocation both use).
  // Its sso ties three more (issue 26), which reads the people it signs in (users), the address rules of outbound
  // calls (webhooks' webhook.http.ts: an issuer is fetched as a webhook is) and a school's hosts (media's
  // checkRedirectUri, for return_to). Moving those two helpers below modules/ would undo the last two.
  // Issue 26's privacy module adds two: users (the person it acts on) and events (`user.erased`); its
  // registry of every table's personal data lives in the data layer (src/db/personal-data.ts), tied to none.
  // Issue 28 added 6: mail reads the rows its mails name (users, enrollments, orders, school products,
  // forum questions) and hears events in their transaction (events); no producer imports mail but users' create.
  // Two more when they met: sso opens identity's sessions, identity sends its reset link through mail.
  // 71 with issue 27: orders ~ enrollments (a paid order enrolls its student; an enrollment names its order).
  // One more: auth-tokens reads privacy's erasures (an erased person gets no credential again).
  // One more with issue 28's drip mail: mail ~ courses (the lessons it announces once released).
  // One more with issue 29's routes beyond the spec: course-classes ~ school-products (a product's classes, `/school_products/:id/school_classes`).
  // Issue 30's reports tie seven: they read the rows they count (orders, enrollments, progress, identity's
  // sessions, users' types) and name the products and courses they count by (school-products, courses).
  // Five with issue 30's exports: the lists whose filters and rows it reads (enrollments, orders, progress's
  // figures) and the names its lines join (users, school products).
  it('domain modules tie at most 102 pairs by imports', () => {
    const moduleOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
    const pairs = new Set(
      [...importGraph(sourceFiles('src'))].flatMap(([file, targets]) =>
        targets.flatMap((target) => {
          const [a, b] = [moduleOf(file), moduleOf(target)];
          return a && b && a !== b ? [[a, b].sort().join(' ~ ')] : [];
        }),
      ),
    );
    expect(pairs.size).toBeGreaterThan(20);
    expect(pairs.size).toBeLessThanOrEqual(102);
  });
});
