import { parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileRoute, GENERATED_OPERATION_RULES } from '../src/rest/compile.js';
import { schemaOf, service } from '../src/service-modules.js';

// A REST row's generated operation is parsed and validated at the row's first request, with the rules
// a generated operation can break (src/rest/compile.ts); here every row passes graphql-js' whole set
// before a release, so neither start-up's leaving it out nor the rules left out hide a broken row.
describe('REST rows compiled', () => {
  it("every row's operation passes graphql-js' whole validation", async () => {
    const schema = await schemaOf(service);
    expect(service.routes.length).toBeGreaterThan(90);
    const broken = service.routes.flatMap((route) => {
      const errors = validate(schema, compileRoute(schema, route).document, specifiedRules);
      return errors.length ? [`${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it("a row's document is made once: every request hands the executor the same object (its compiled plan is kept by it)", async () => {
    const schema = await schemaOf(service);
    const compiled = compileRoute(schema, service.routes[0]!);
    expect(compiled.document).toBe(compiled.document);
    expect(compileRoute(schema, service.routes[0]!).document).toBe(compiled.document);
  });

  it('the rules kept still refuse what a wrong row would generate', async () => {
    const schema = await schemaOf(service);
    const refused = (text: string) => validate(schema, parse(text), GENERATED_OPERATION_RULES).map((e) => e.message);
    expect(refused('query Rest { result: noSuchField }')[0]).toMatch(/Cannot query field "noSuchField"/);
    expect(refused('query Rest($id: ID!) { result: course(id: $id, nope: 1) { id } }')[0]).toMatch(/Unknown argument "nope"/);
    expect(refused('query Rest { result: course { id } }')[0]).toMatch(/argument "id" of type "ID!" is required/);
    expect(refused('query Rest($id: ID!) { result: course(id: $id) }')[0]).toMatch(/must have a selection of subfields/);
    expect(refused('query Rest($id: String) { result: course(id: $id) { id } }')[0]).toMatch(/Variable "\$id" of type "String" used in position expecting type "ID!"/);
  });
});
