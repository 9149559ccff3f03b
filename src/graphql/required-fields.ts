import { getNamedType, type GraphQLInputObjectType, type GraphQLInputType, isInputObjectType, isNonNullType } from 'graphql';
import { Extensions } from 'type-graphql';

/**
 * The fields of an input that always hold a value: required on create and never cleared on update
 * (what `Checks.present` checks). Input fields stay nullable so that a missing one is a UserError
 * naming it (422) beside every other problem; this declaration says which they are, for the
 * OpenAPI document's `required` list of a create and for the test that every create and update
 * names them all in one 422 (test/rest/all-problems.test.ts). The resolver's checks still decide.
 *
 *   @RequiredFields('title', 'type')
 *   @InputType()
 *   export class LessonInput { ... }
 */
export const RequiredFields = (...fields: string[]): ClassDecorator & MethodDecorator & PropertyDecorator =>
  Extensions({ requiredFields: fields });

/** An input's required fields (GraphQL names): those declared with RequiredFields, and non-null fields with no default. */
export function requiredFieldsOf(input: GraphQLInputObjectType): string[] {
  const fields = input.getFields();
  const declared = (input.extensions as { requiredFields?: string[] }).requiredFields ?? [];
  for (const name of declared) if (!fields[name]) throw new Error(`RequiredFields: ${input.name} has no field ${name}`);
  const nonNull = Object.values(fields).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
  return [...new Set([...nonNull, ...declared])];
}

/** The input object an argument takes (through list and non-null wrappers), if it takes one. */
export function inputObjectOf(type: GraphQLInputType): GraphQLInputObjectType | null {
  const named = getNamedType(type);
  return isInputObjectType(named) ? named : null;
}
