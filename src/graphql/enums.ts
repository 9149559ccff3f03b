import { registerEnumType } from 'type-graphql';

/**
 * A GraphQL enum whose value names are the stored strings themselves (`time`, `VideoSlide`),
 * so REST's snake/camel values pass through unchanged. Built from a pgEnum's values.
 */
export function graphqlEnum<const V extends readonly string[]>(name: string, values: V, description?: string) {
  const object = Object.fromEntries(values.map((v) => [v, v])) as { [K in V[number]]: K };
  registerEnumType(object, { name, description });
  return object;
}
