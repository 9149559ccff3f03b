import { defaultFieldResolver, getNullableType, type GraphQLField, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLSchema, isListType, isNonNullType } from 'graphql';
import type { SchoolStatus } from '../db/school.table.js';
import { AppError, forbidden } from '../errors/app-error.js';
import type { Role } from './credential.js';
import { loneEvent, mayFireSchoolEvent } from './school-lifecycle.js';
import { schoolStatusAccess } from './school-gate.js';
import { checkSchoolRows } from './egress.js';
import { accessOf, fieldReaders, type RoleMatrix, type Rule } from './role-matrix.js';
import type { RequestAccess } from './tenancy.js';

/**
 * Installs the role matrix (assembled from the modules' declarations: auth/role-matrix.ts) on the
 * built schema, once at start-up: every root field checks the caller's role and its school's status
 * before it runs, and passes what it returns through the tenancy check; every secret or personal
 * field reads null for a role that may not see it. Both faces execute this schema, so REST routes
 * get the same guards. A root field without a row, or a row naming no field, stops start-up.
 */
export function installRoleMatrix(schema: GraphQLSchema, { operations, fields }: RoleMatrix): GraphQLSchema {
  const named = new Set<string>();
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!type) continue;
    const mutation = type === schema.getMutationType();
    for (const field of Object.values(type.getFields())) {
      const key = `${type.name}.${field.name}`;
      const rule = operations[key];
      if (!rule) throw new Error(`The role matrix has no row for ${key}: its module's rules (src/modules/<module>/index.ts) give it one`);
      if (rule.gate && !mutation) throw new Error(`The role matrix gives ${key} a gate: only a mutation has one (a query always passes a read-only gate)`);
      named.add(key);
      guardOperation(field, rule, mutation);
    }
  }
  const unknown = Object.keys(operations).filter((key) => !named.has(key));
  if (unknown.length) throw new Error(`The role matrix names fields the schema has not: ${unknown.join(', ')}`);

  for (const [key, kind] of Object.entries(fields)) {
    const [typeName, fieldName] = key.split('.');
    const field = (schema.getType(typeName) as GraphQLObjectType | undefined)?.getFields?.()[fieldName];
    if (!field) throw new Error(`The role matrix guards a field the schema has not: ${key}`);
    const list = isListType(getNullableType(field.type));
    if (isNonNullType(field.type) && !list) throw new Error(`${key} is guarded, so it must be nullable (a role that may not see it reads null)`);
    guardField(field, fieldReaders[kind], isNonNullType(field.type) ? [] : null);
  }
  return schema;
}

/**
 * Why the caller may not run an operation, or null when it may. `args` are the operation's
 * arguments; REST asks before it reads the body (without them), and the resolver's guard asks
 * again with them, so a gate that depends on them decides there.
 */
export function refusal(ctx: RequestAccess, rule: Rule, mutation: boolean, args?: Record<string, unknown>): AppError | null {
  if (rule.public) return null;
  const credential = ctx.credential;
  if (!credential) return new AppError('unauthenticated', 'A valid credential is required (Authorization: Bearer <token>)');
  if (accessOf(rule, credential.role) === 'deny') return forbidden();
  if (credential.role === 'platform' || !ctx.schoolStatus) return null;
  const status = ctx.schoolStatus;
  const gate = schoolStatusAccess[status];
  if (gate === 'none') return forbidden(`The school is ${status}: its credentials may do nothing`);
  if (gate === 'read' && mutation && !passesReadOnly(rule, args, credential.role, status))
    return forbidden(`The school is ${status}: its credentials may only read`);
  return null;
}

/** Whether a mutation passes a read-only gate: the rule's `gate` (role-matrix.ts). */
function passesReadOnly(rule: Rule, args: Record<string, unknown> | undefined, role: Role, status: SchoolStatus): boolean {
  if (rule.gate === 'reads') return true;
  if (rule.gate !== 'lifecycle') return false;
  // REST asks before it reads the body: the resolver's guard decides on the input.
  if (!args) return true;
  const event = loneEvent(args.input);
  return event !== null && mayFireSchoolEvent(role, status, event);
}

function guardOperation(field: GraphQLField<unknown, RequestAccess>, rule: Rule, mutation: boolean) {
  // A subscription is refused before it starts listening; each event it then yields passes the resolve guard below.
  const subscribe = field.subscribe;
  if (subscribe)
    field.subscribe = (source, args, ctx, info) => {
      const refused = refusal(ctx, rule, false);
      if (refused) throw refused;
      return subscribe(source, args, ctx, info);
    };
  const resolve: GraphQLFieldResolver<unknown, RequestAccess> = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    const refused = refusal(ctx, rule, mutation, args);
    if (refused) throw refused;
    const result = resolve(source, args, ctx, info);
    // A public operation (a media's public view) serves any school's rows to whoever names them.
    if (rule.public) return result;
    const name = `${info.parentType.name}.${info.fieldName}`;
    return result instanceof Promise ? result.then((value) => checkSchoolRows(ctx, value, name)) : checkSchoolRows(ctx, result, name);
  };
}

function guardField(field: GraphQLField<any, RequestAccess>, readers: (typeof fieldReaders)[keyof typeof fieldReaders], hidden: null | []) {
  const resolve: GraphQLFieldResolver<any, RequestAccess> = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    const credential = ctx.credential;
    const may =
      !!credential &&
      (readers.roles.includes(credential.role) || (readers.self && credential.userId !== null && source?.id === credential.userId));
    return may ? resolve(source, args, ctx, info) : hidden;
  };
}
