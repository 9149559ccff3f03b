import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { getNamedType, isEnumType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { AppError, causeChain, databaseInputError, foreignKeyViolation, uniqueViolation, userError } from '../src/errors/app-error.js';
import { closeCode, type ErrorCode, errorCodes, payloadStatus, raisedStatus } from '../src/errors/codes.js';
import { errorReply, type RestError } from '../src/errors/reply.js';
import { commonCodes, domainCodes, type ErrorDomain } from '../src/graphql/error-codes.js';
import { appSchema, service } from '../src/service-modules.js';
import { loggedError } from '../src/http/logging.js';

// The one table of error codes (src/errors/codes.ts): the compiler holds the source to it (every code
// is typed as its union, `ErrorCode`), and the per-domain enums hold the codes each module's payloads can carry.

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
const sources = new Map(walk('src').map((f) => [f, readFileSync(f, 'utf8')]));

/** A code a UserError is made with: `checks.add(field, 'code'`, `userError(field, 'code'`. */
const payloadCodePatterns = [/\.add\(\s*(?:[^,()'"]|'[^']*'|`[^`]*`|\([^()]*\))+,\s*'([a-z_]+)'/g, /userError\(\s*(?:[^,()[\]]|\([^()]*\)|\[[^\]]*\]|'[^']*')+,\s*'([a-z_]+)'/g];

const codesIn = (text: string, patterns: RegExp[]) => new Set(patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));

describe('error codes', () => {
  it("codes are the table's union: a code it lacks does not compile (test/tsconfig.json's tsc fails when a line below compiles)", () => {
    const wrong = [
      // @ts-expect-error a UserError's code is the table's
      () => userError('title', 'no_such_code'),
      // @ts-expect-error an AppError's code is a raised one of the table
      () => new AppError('no_such_code', 'x'),
      // @ts-expect-error a payload code is not raised
      () => new AppError('blank', 'x'),
      // @ts-expect-error the writer takes only the table's codes
      () => errorReply('rest', { code: 'no_such_code' }),
      // @ts-expect-error nor does a row of REST's error body
      (): RestError => ({ field: 'base', code: 'no_such_code', message: 'x' }),
      // @ts-expect-error nor a socket's close
      () => errorReply('close', { code: 'RATE_LIMITED' }),
      // @ts-expect-error nor the table's readers
      () => raisedStatus('no_such_code'),
    ];
    expect(wrong).toHaveLength(7);
    const known: ErrorCode[] = ['blank', 'taken', 'in_use', 'not_found', 'bad_request', 'unauthenticated', 'route_not_found', 'request_timeout', 'rate_limited'];
    for (const code of known) expect(errorCodes[code].message).toBeTruthy();
  });

  it('statuses, messages and close codes come from the table, whatever the face', () => {
    expect(errorReply('rest', { code: 'unauthenticated' })).toEqual({
      status: 401,
      body: { errors: { base: [errorCodes.unauthenticated.message] }, details: { base: [{ error: 'unauthenticated' }] } },
    });
    expect(errorReply('graphql-http', { code: 'rate_limited', message: 'slow down', extensions: { retryAfter: 2 } })).toEqual({
      status: 429,
      body: { errors: [{ message: 'slow down', extensions: { code: 'RATE_LIMITED', retryAfter: 2 } }] },
    });
    expect(errorReply('graphql', { code: 'bad_request', field: ['title'] }).extensions).toEqual({ code: 'BAD_USER_INPUT', field: ['title'] });
    expect(errorReply('graphql', { code: 'internal' }).message).toBe('Internal server error');
    expect(errorReply('close', { code: 'forbidden' })).toEqual({ code: 4403, reason: errorCodes.forbidden.message });
    expect([closeCode('unauthenticated'), closeCode('bad_request'), closeCode('rate_limited'), closeCode('too_many_sockets')]).toEqual([4401, 4400, 4429, 4429]);
    expect(errorReply('socket', { code: 'headers_too_large' })).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n[^]*"details":\{"base":\[\{"error":"headers_too_large"\}\]\}\}$/);
    expect(payloadStatus(['blank', 'taken'])).toBe(409);
    expect(payloadStatus(['taken', 'forbidden'])).toBe(403);
    expect(payloadStatus(['invalid'])).toBe(422);
  });

  it('one bounded walk reads a cause chain: a cyclic cause ends it, a wrapped database error is found', () => {
    const a: any = new Error('a');
    const b: any = new Error('b');
    a.cause = b;
    b.cause = a;
    expect([...causeChain(a)]).toEqual([a, b]);
    expect(uniqueViolation(a)).toBeNull();
    expect(foreignKeyViolation(a)).toBeNull();
    expect(databaseInputError(a)).toBeNull();
    let links = 0;
    for (let e: any = loggedError(a); e; e = e.cause) links++;
    expect(links).toBe(2);
    const wrapped = new Error('Failed query', { cause: Object.assign(new Error('duplicate key'), { code: '23505', constraint_name: 'courses_code_key' }) });
    expect(uniqueViolation(wrapped)).toEqual({ constraint: 'courses_code_key' });
    const deep = Array.from({ length: 20 }, (_, i) => new Error(`e${i}`)).reduceRight<Error | undefined>((cause, e) => Object.assign(e, { cause }), undefined)!;
    expect([...causeChain(deep)]).toHaveLength(8);
  });

  /** The files `file` imports from src/, transitively (relative imports only). */
  function closure(files: string[]): Set<string> {
    const seen = new Set<string>();
    const queue = [...files];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const m of (sources.get(file) ?? '').matchAll(/from '(\.[^']+)\.js'/g)) {
        const target = `${resolve(dirname(file), m[1])}.ts`.slice(process.cwd().length + 1);
        // The module list and the service import every resolver: they carry no codes of their own.
        if (sources.has(target) && !/src\/modules\/index\.ts$|src\/service-modules\.ts$/.test(target)) queue.push(target);
      }
    }
    return seen;
  }

  const declaring = service.modules.flatMap((m) => (m.errors ? [{ module: m.name, domain: m.errors }] : []));
  it.each(declaring)("the $domain.name domain's enum holds every code its module's ($module) payloads can carry", ({ module, domain }) => {
    const files = [...sources.keys()].filter((f) => f.startsWith(`src/modules/${module}/`));
    expect(files.length).toBeGreaterThan(0);
    const used = new Set([...closure(files)].flatMap((f) => [...codesIn(sources.get(f)!, payloadCodePatterns)]));
    const enumerated = domainCodes(domain);
    expect([...used].filter((code) => !enumerated.includes(code as never)).sort()).toEqual([]);
  });

  it('every payload of the schema carries its domain error type, whose enum lists the domain codes as their own strings', async () => {
    const schema = await appSchema();
    const payloads = Object.values(schema.getTypeMap()).filter((t) => isObjectType(t) && t.getFields().errors);
    expect(payloads.length).toBeGreaterThan(40);
    const domainErrorNames = new Map<string, ErrorDomain>(service.errorDomains.map((d) => [`${d.name}Error`, d]));
    for (const payload of payloads) {
      if (!isObjectType(payload)) continue;
      const errorType = getNamedType(payload.getFields().errors.type);
      const domain = domainErrorNames.get(errorType.name);
      expect(domain, `${payload.name}.errors is ${errorType.name}`).toBeDefined();
      if (!isObjectType(errorType)) throw new Error(`${errorType.name} is not an object type`);
      expect(Object.keys(errorType.getFields()).sort()).toEqual(['code', 'field', 'message']);
      const codeType = getNamedType(errorType.getFields().code.type);
      expect(codeType.name).toBe(`${errorType.name}Code`);
      if (!isEnumType(codeType)) throw new Error(`${codeType.name} is not an enum`);
      expect(codeType.getValues().map((v) => [v.name, v.value])).toEqual(domainCodes(domain!).map((c) => [c, c]));
      expect(codeType.serialize('blank')).toBe('blank');
    }
    for (const code of commonCodes) expect(errorCodes[code]).toBeDefined();
  });
});
