import 'reflect-metadata';
import { GraphQLError } from 'graphql';
import { Field, ObjectType } from 'type-graphql';

/**
 * Errors raised instead of a result: each code maps once to a GraphQL `extensions.code` and an
 * HTTP status, read by both faces (graphql/apollo.ts formats them, rest/reply.ts renders them).
 */
export const raisedErrors = {
  bad_request: { http: 400, graphql: 'BAD_USER_INPUT' },
  unauthenticated: { http: 401, graphql: 'UNAUTHENTICATED' },
  forbidden: { http: 403, graphql: 'FORBIDDEN' },
  not_found: { http: 404, graphql: 'NOT_FOUND' },
  conflict: { http: 409, graphql: 'CONFLICT' },
  payload_too_large: { http: 413, graphql: 'PAYLOAD_TOO_LARGE' },
  /** A text longer than its field's family allows (graphql/text-limits.ts). */
  too_long: { http: 422, graphql: 'BAD_USER_INPUT' },
  internal: { http: 500, graphql: 'INTERNAL_SERVER_ERROR' },
} as const;
export type RaisedErrorCode = keyof typeof raisedErrors;

export class AppError extends GraphQLError {
  constructor(
    readonly code: RaisedErrorCode,
    message: string,
    readonly field: string[] = [],
  ) {
    super(message, { extensions: { code: raisedErrors[code].graphql, ...(field.length ? { field } : {}) } });
  }
}

export const notFound = (what = 'Record') => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'This credential may not do that') => new AppError('forbidden', message);

/** A problem with one field of a mutation's input, returned as data in the payload (Saleor style). */
@ObjectType({ description: 'Why a mutation did not apply: the input field path, a stable code and a message.' })
export class UserError {
  @Field(() => [String], { description: 'Path of the input field, empty for the object as a whole.' })
  field!: string[];

  @Field(() => String, { description: 'blank, invalid, inclusion, taken, not_found, forbidden, ...' })
  code!: string;

  @Field(() => String)
  message!: string;
}

/** The HTTP status of a REST reply whose payload carries these UserErrors: the most severe wins. */
export function statusForUserErrors(errors: readonly UserError[]): number {
  if (errors.some((e) => e.code === 'forbidden')) return 403;
  if (errors.some((e) => e.code === 'taken' || e.code === 'in_use')) return 409;
  return 422;
}

/** Rails-style messages for the codes the validators produce. */
const messages: Record<string, string> = {
  blank: "can't be blank",
  present: 'must be blank',
  inclusion: 'is not included in the list',
  invalid: 'is invalid',
  taken: 'has already been taken',
  not_found: 'must exist',
  forbidden: 'is not allowed for this credential',
  greater_than: 'must be greater than %{count}',
  greater_than_or_equal_to: 'must be greater than or equal to %{count}',
  less_than_or_equal_to: 'must be less than or equal to %{count}',
  too_long: 'is too long (maximum is %{count} characters)',
  not_a_number: 'is not a number',
  invalid_transition: 'cannot happen from the current state',
  in_use: 'is still in use by other records',
};

export function userError(field: string | string[], code: string, message?: string, count?: number): UserError {
  const e = new UserError();
  e.field = typeof field === 'string' ? (field ? [field] : []) : field;
  e.code = code;
  e.message = message ?? (messages[code] ?? code).replace('%{count}', String(count ?? ''));
  return e;
}

/** Thrown inside a mutation to abort its transaction and return these errors as its payload. */
export class UserErrors extends Error {
  constructor(readonly errors: UserError[]) {
    super(errors.map((e) => `${e.field.join('.')}: ${e.message}`).join('; '));
  }
}

/** SQLSTATEs of class 22 (data exception) that input can cause, with a message that quotes nothing back. */
const dataExceptions: Record<string, string> = {
  '22001': 'A text is longer than its field allows',
  '22003': 'A number is out of range',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22021': 'A text contains bytes that are not valid UTF-8',
  '22P02': 'A value has the wrong format',
  '22P05': 'A text contains a character that cannot be stored',
};

export interface RejectedInput {
  /** `blank` for a NULL in a NOT NULL column, `invalid` for a data exception. */
  code: 'blank' | 'invalid';
  field: string[];
  message: string;
}

/**
 * A database failure that the input caused, not the service: a data exception (SQLSTATE class 22:
 * a number out of range, an impossible date, a character text cannot hold) or a NULL for a NOT NULL
 * column (23502). Mutations turn it into a UserError (mutation.ts); the error paths of both faces
 * into a 400 (`rejectedInputError`) before treating a failure as internal.
 */
export function databaseInputError(error: unknown): RejectedInput | null {
  for (let e: any = error; e; e = e.cause) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^22[0-9A-Z]{3}$/.test(code)) return { code: 'invalid', field: [], message: dataExceptions[code] ?? 'A value is malformed or out of range' };
    if (code === '23502') {
      const column: string | undefined = e.column_name ?? e.column;
      const field = column ? [column.replace(/_([a-z0-9])/g, (_: string, c: string) => c.toUpperCase())] : [];
      return { code: 'blank', field, message: "can't be blank" };
    }
  }
  return null;
}

/** `databaseInputError` as the 400 that an error path answers. */
export function rejectedInputError(error: unknown): AppError | null {
  const rejected = databaseInputError(error);
  if (!rejected) return null;
  const message = rejected.code === 'blank' ? `${rejected.field[0] ?? 'A required value'} can't be blank` : rejected.message;
  return new AppError('bad_request', message, rejected.field);
}

/** PostgreSQL's unique violation, through either driver (drizzle wraps it in `cause`). */
export function uniqueViolation(error: unknown): { constraint?: string } | null {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23505') return { constraint: e.constraint_name ?? e.constraint };
  }
  return null;
}

/**
 * PostgreSQL's foreign-key violation: `inUse` when a delete hits rows that still reference the
 * record (23503 for NO ACTION, restrict_violation 23001 for ON DELETE RESTRICT), otherwise a
 * referenced row vanished between the check and the write.
 */
export function foreignKeyViolation(error: unknown): { constraint?: string; inUse: boolean } | null {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23001') return { constraint: e.constraint_name ?? e.constraint, inUse: true };
    if (e.code === '23503') {
      return { constraint: e.constraint_name ?? e.constraint, inUse: /still referenced/.test(String(e.detail ?? e.message)) };
    }
  }
  return null;
}
