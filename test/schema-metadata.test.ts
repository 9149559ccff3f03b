import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * tsx and esbuild (npm run dev, npm run schema:write) emit no decorator metadata; tsc and vitest
 * do. So the schema is built here with the metadata hidden, as tsx sees it: a decorator that
 * leans on `design:type` instead of an explicit type function (`@Field(() => String)`) either
 * fails to load or changes the schema, and this test fails.
 */
const hidden = new Set(['design:type', 'design:paramtypes', 'design:returntype']);
const { getMetadata, getOwnMetadata } = Reflect;
Reflect.getMetadata = ((key: unknown, ...rest: unknown[]) =>
  hidden.has(key as string) ? undefined : (getMetadata as (...a: unknown[]) => unknown)(key, ...rest)) as typeof Reflect.getMetadata;
Reflect.getOwnMetadata = ((key: unknown, ...rest: unknown[]) =>
  hidden.has(key as string) ? undefined : (getOwnMetadata as (...a: unknown[]) => unknown)(key, ...rest)) as typeof Reflect.getOwnMetadata;
afterAll(() => {
  Reflect.getMetadata = getMetadata;
  Reflect.getOwnMetadata = getOwnMetadata;
});

describe('the schema without emitted decorator metadata', () => {
  it('prints exactly schema/schema.graphql', async () => {
    // Imported only now, so every decorator runs with the metadata hidden.
    const { artifactPath, artifacts } = await import('../src/tools/artifacts.js');
    const sdl = await artifacts.graphql.render();
    expect(sdl, 'a decorator needs an explicit type function (`@Field(() => String)`, `@Arg("id", () => ID)`)').toBe(
      readFileSync(artifactPath(artifacts.graphql.file), 'utf8'),
    );
  });
});
