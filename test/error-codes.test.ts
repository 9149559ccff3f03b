import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { getNamedType, isEnumType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { commonCodes, domainCodes, errorCodes, errorDomains, type ErrorDomainKey } from '../src/graphql/error-codes.js';
import { appSchema } from '../src/graphql/schema.js';

// The one table of error codes (src/graphql/error-codes.ts) against the source that uses them, and
// the per-domain enums against the codes each module's payloads can carry.

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
const sources = new Map(walk('src').map((f) => [f, readFileSync(f, 'utf8')]));

/** A code a UserError is made with: `checks.add(field, 'code'`, `userError(field, 'code'`. */
const payloadCodePatterns = [/\.add\(\s*(?:[^,()'"]|'[^']*'|`[^`]*`|\([^()]*\))+,\s*'([a-z_]+)'/g, /userError\(\s*(?:[^,()[\]]|\([^()]*\)|\[[^\]]*\]|'[^']*')+,\s*'([a-z_]+)'/g];
/** A code raised or answered: `new AppError('code'`, `baseError('code'`, `code: 'code'` and the refusals of the HTTP layer. */
const raisedCodePatterns = [/new AppError\(\s*'([a-z_]+)'/g, /baseError\(\s*'([a-z_]+)'/g, /\[\d{3}, '([a-z_]+)'/g, /\bcode: '([a-z_]+)'/g, /code \?\? '([a-z_]+)'/g];

const codesIn = (text: string, patterns: RegExp[]) => new Set(patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));

describe('error codes', () => {
  it('every code the source makes a UserError or an error reply with has an entry in the table', () => {
    const missing: string[] = [];
    for (const [file, text] of sources) {
      // Codes of other vocabularies: zod's issue codes (config.ts), the demo data's product codes (seed).
      const patterns = /src\/(config|tools\/seed)\.ts$/.test(file) ? [] : /src\/(rest|http|graphql)\//.test(file) ? [...payloadCodePatterns, ...raisedCodePatterns] : [...payloadCodePatterns, ...raisedCodePatterns.slice(0, 2)];
      for (const code of codesIn(text, patterns)) if (!Object.hasOwn(errorCodes, code)) missing.push(`${file}: ${code}`);
    }
    expect(missing).toEqual([]);
    // The scan finds what it looks for (a broken pattern would find nothing and pass).
    const found = new Set([...sources.values()].flatMap((t) => [...codesIn(t, [...payloadCodePatterns, ...raisedCodePatterns])]));
    for (const code of ['blank', 'taken', 'in_use', 'not_found', 'invalid_transition', 'too_short', 'foreign_host', 'bad_request', 'unauthenticated', 'route_not_found', 'request_timeout'])
      expect(found, code).toContain(code);
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
        // The module list and the schema import every resolver: they carry no codes of their own.
        if (sources.has(target) && !/src\/modules\/index\.ts$|src\/graphql\/schema\.ts$/.test(target)) queue.push(target);
      }
    }
    return seen;
  }

  it.each(Object.keys(errorDomains) as ErrorDomainKey[])("the %s domain's enum holds every code its modules' payloads can carry", (domain) => {
    const files = [...sources.keys()].filter((f) => errorDomains[domain].folders.some((folder) => f.startsWith(`src/modules/${folder}/`)));
    expect(files.length).toBeGreaterThan(0);
    const used = new Set([...closure(files)].flatMap((f) => [...codesIn(sources.get(f)!, payloadCodePatterns)]));
    const enumerated = domainCodes(domain);
    expect([...used].filter((code) => !enumerated.includes(code as never)).sort()).toEqual([]);
  });

  it('every payload of the schema carries its domain error type, whose enum lists the domain codes as their own strings', async () => {
    const schema = await appSchema();
    const payloads = Object.values(schema.getTypeMap()).filter((t) => isObjectType(t) && t.getFields().errors);
    expect(payloads.length).toBeGreaterThan(40);
    const domainErrorNames = new Map(Object.entries(errorDomains).map(([key, d]) => [`${d.name}Error`, key as ErrorDomainKey]));
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
