/**
 * Example values built from the OpenAPI document's own JSON Schemas, so every operation shows a
 * request and a reply without one written by hand per route. Deterministic: the same schema
 * always gives the same example (the committed document diffs cleanly), and each example is valid
 * against its schema (Redocly's `no-invalid-media-type-examples` checks it).
 */
type JsonSchema = Record<string, unknown>;

/** The service's test clock starts here too: one fixed instant for every date. */
const INSTANT = '2026-01-15T12:00:00Z';

const byFormat: Record<string, unknown> = {
  'date-time': INSTANT,
  date: INSTANT.slice(0, 10),
  email: 'user@example.com',
  uri: 'https://example.com/resource',
  'uri-reference': '/resource/1',
  uuid: '00000000-0000-4000-8000-000000000001',
};

/** A readable string for a property without a format: its name says what it holds. */
function stringFor(key: string): string {
  if (/(^|_)(url|uri)$/.test(key)) return 'https://example.com/resource';
  if (/(^|_)email$/.test(key)) return 'user@example.com';
  if (/(^|_)password$/.test(key)) return 'secret-password';
  return key ? `Example ${key.replace(/_/g, ' ')}` : 'example';
}

function integerFor(schema: JsonSchema): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(Math.max(1, min), max);
}

/**
 * An example of `schema`; `schemas` are the document's components (for `$ref`). `key` is the
 * property's name, a hint for strings. A reference already being expanded (a recursive type) ends
 * the walk: optional properties that would recurse are left out.
 */
export function exampleOf(schema: JsonSchema, schemas: Record<string, JsonSchema>, key = '', seen: string[] = []): unknown {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.includes(name)) return undefined;
    return exampleOf(schemas[name] ?? {}, schemas, key, [...seen, name]);
  }
  if ('example' in schema) return schema.example;
  if ('default' in schema && schema.default !== null) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  // Every part at once (a reply that lifts an embedded object's fields to its top: Route.lift): their examples merged.
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((part) => exampleOf(part, schemas, key, seen));
    return parts.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) {
    const branch = alternatives.find((s) => s.type !== 'null') ?? alternatives[0];
    return exampleOf(branch, schemas, key, seen);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return byFormat[String(schema.format)] ?? stringFor(key);
    case 'integer':
      return integerFor(schema);
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1.5) : 1.5;
    case 'boolean':
      return true;
    case 'array': {
      const item = exampleOf((schema.items as JsonSchema) ?? {}, schemas, key.replace(/_ids$/, '_id'), seen);
      return item === undefined ? [] : [item];
    }
    case 'object':
      return objectExample(schema, schemas, seen);
    default:
      return Array.isArray(schema.type) ? null : {};
  }
}

function objectExample(schema: JsonSchema, schemas: Record<string, JsonSchema>, seen: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
    const value = exampleOf(property, schemas, name, seen);
    if (value !== undefined) out[name] = value;
    else if (required.has(name)) out[name] = null;
  }
  return out;
}
