import 'reflect-metadata';
import { type ClassType, Field, ObjectType } from 'type-graphql';
import type { Queryable } from '../db/client.js';
import type { Context } from './context.js';
import { domainOf } from './error-codes.js';
import { databaseInputError, domainErrorType, foreignKeyViolation, uniqueViolation, type UserError, UserErrors, userError } from './errors.js';

/**
 * The `{ <resource>, errors }` payload type of a resource's mutations. Its errors are of the
 * domain's `<Domain>Error` type, the domain found from the payload's or the node's name among the
 * modules' declared domains (`errors` in defineModule) when the schema is built.
 */
export function Payload<T extends object>(Node: ClassType<T>, key: string, name = `${Node.name}Payload`) {
  @ObjectType(name)
  class PayloadClass {
    @Field(() => [domainErrorType(domainOf(name, Node.name))])
    errors!: UserError[];
  }
  Field(() => Node, { nullable: true })(PayloadClass.prototype, key);
  return PayloadClass as ClassType<{ errors: UserError[] } & Record<string, unknown>>;
}

/** Unique constraints that clients can hit, by name, with the input field they are about. */
const uniqueFields = new Map<string, string[]>();
export function uniqueConstraintField(constraint: string, field: string | string[]) {
  uniqueFields.set(constraint, typeof field === 'string' ? [field] : field);
}

/**
 * Runs a mutation's writes in one transaction. Validation failures (thrown UserErrors) and
 * unique violations roll everything back and come back as the payload's `errors`.
 */
export function mutate<R>(
  ctx: Context,
  key: string,
  work: (tx: Queryable) => Promise<R>,
): Promise<Record<string, unknown> & { errors: UserError[] }> {
  return payload(key, async () => {
    const result = await ctx.db.transaction((tx) => work(tx));
    ctx.loaders.clearAll();
    return result;
  });
}

/** The `{ <key>, errors }` payload of `work`: thrown UserErrors (and constraint violations) become `errors`. */
export async function payload<R>(key: string, work: () => Promise<R>): Promise<Record<string, unknown> & { errors: UserError[] }> {
  try {
    return { [key]: await work(), errors: [] };
  } catch (error) {
    const errors = userErrorsOf(error);
    if (!errors) throw error;
    return { [key]: null, errors };
  }
}

export function userErrorsOf(error: unknown): UserError[] | null {
  if (error instanceof UserErrors) return error.errors;
  const unique = uniqueViolation(error);
  if (unique) {
    const field = (unique.constraint && uniqueFields.get(unique.constraint)) || [];
    return [userError(field, 'taken')];
  }
  const fk = foreignKeyViolation(error);
  if (fk?.inUse) return [userError([], 'in_use', 'is still in use by other records and cannot be deleted')];
  if (fk) return [userError([], 'not_found', 'a referenced record no longer exists')];
  // A value the database refused (out of range, NULL for a required column): the input's fault, a 422.
  const rejected = databaseInputError(error);
  if (rejected) return [userError(rejected.field, rejected.code, rejected.message)];
  return null;
}
