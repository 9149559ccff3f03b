import { GraphQLError } from 'graphql';
import { type ErrorCode, defaultMessage, graphqlCode, type RaisedErrorCode, raisedStatus } from './codes.js';

export type { ErrorCode, RaisedErrorCode } from './codes.js';

/**
 * An error and its causes, as far as `max` links: drizzle wraps the driver's error in `cause`, and
 * GraphQL's located error keeps the resolver's in `originalError` (followed when asked). The one walk
 * of a cause chain: bounded, and a cycle (`a.cause = b; b.cause = a`) ends it.
 */
export function* causeChain(error: unknown, { max = 8, originalError = false }: { max?: number; originalError?: boolean } = {}): Generator<any> {
  const seen = new Set<unknown>();
  for (let e: any = error; e && seen.size < max && !seen.has(e); e = (originalError ? e.originalError : undefined) ?? e.cause) {
    seen.add(e);
    yield e;
  }
}

/**
 * An error raised instead of a result: its code (codes.ts) gives the GraphQL `extensions.code`
 * and the HTTP status, written for every face by reply.ts.
 */
export class AppError extends GraphQLError {
  constructor(
    readonly code: RaisedErrorCode,
    message: string,
    readonly field: string[] = [],
    /** The number its code's message names (`too_long`'s maximum), for the message in another language (i18n.ts). */
    readonly count?: number,
    /** More GraphQL extensions after the code (a 429's `retryAfter`, which REST sends as `Retry-After`). */
    readonly more: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code: graphqlCode(code), ...(field.length ? { field } : {}), ...more } });
  }

  /** The HTTP status of this error (REST, and GraphQL when refused before execution). */
  get status(): number {
    return raisedStatus(this.code);
  }
}

export const notFound = (what = 'Record') => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'This credential may not do that') => new AppError('forbidden', message);
/** A 429 that says when to try again: GraphQL's `extensions.retryAfter`, REST's `Retry-After`. */
export const rateLimited = (message: string, retryAfter: number) => new AppError('rate_limited', message, [], undefined, { retryAfter });

/**
 * A problem with one field of a mutation's input, returned as data in the payload (Saleor style).
 * GraphQL shows it as its domain's `<Domain>Error` type (graphql/errors.ts' `domainErrorType`), whose `code` is the
 * domain's `<Domain>ErrorCode` enum: the same strings.
 */
export class UserError {
  field!: string[];
  code!: ErrorCode;
  /** The producer's English message; GraphQL shows it in the request's language (graphql/errors.ts). */
  message!: string;
  /** The number its code's message names (a minimum, a maximum), for the message in another language. */
  count?: number;
}

export function userError(field: string | string[], code: ErrorCode, message?: string, count?: number): UserError {
  const e = new UserError();
  e.field = typeof field === 'string' ? (field ? [field] : []) : field;
  e.code = code;
  e.message = message ?? defaultMessage(code, count);
  if (count !== undefined) e.count = count;
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
  for (const e of causeChain(error)) {
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

/**
 * The service's own refusal behind `error`, as both faces answer it: an AppError (also one a
 * resolver threw, inside GraphQL's located error), or input the database refused as a 400. Null
 * for anything else: not the client's doing, so masked and logged.
 */
export function raisedErrorOf(error: unknown): AppError | null {
  const original = error instanceof GraphQLError && !(error instanceof AppError) && error.originalError ? error.originalError : error;
  return original instanceof AppError ? original : rejectedInputError(original);
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
  for (const e of causeChain(error)) {
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
  for (const e of causeChain(error)) {
    if (e.code === '23001') return { constraint: e.constraint_name ?? e.constraint, inUse: true };
    if (e.code === '23503') {
      return { constraint: e.constraint_name ?? e.constraint, inUse: /still referenced/.test(String(e.detail ?? e.message)) };
    }
  }
  return null;
}

/**
 * Several arguments of a query refused at once (a report's period: `from`, `to`, `interval`): one
 * 422 `invalid_arguments` naming each, in GraphQL's `extensions.problems` and as one REST row each.
 */
export function invalidArguments(problems: readonly UserError[]): AppError {
  const rows = problems.map(({ field, code, message, count }) => ({ field, code, message, ...(count === undefined ? {} : { count }) }));
  return new AppError('invalid_arguments', problems.map((p) => `${p.field.join('.')} ${p.message}`).join('; '), problems[0]?.field ?? [], undefined, { problems: rows });
}
