import type { GraphQLError } from 'graphql';
import { AppError, raisedErrors, rejectedInputError, type UserError } from '../graphql/errors.js';
import { restFieldName } from './names.js';

export interface RestError {
  field: string;
  code: string;
  message: string;
}

/** The one error body of every REST status: `{"errors": {"title": ["can't be blank"]}, "details": {"title": [{"error": "blank"}]}}`. */
export function errorBody(errors: RestError[]) {
  const body = { errors: {} as Record<string, string[]>, details: {} as Record<string, { error: string }[]> };
  for (const e of errors) {
    (body.errors[e.field] ??= []).push(e.message);
    (body.details[e.field] ??= []).push({ error: e.code });
  }
  return body;
}

export const baseError = (code: string, message: string): RestError[] => [{ field: 'base', code, message }];

export const fromUserErrors = (errors: readonly UserError[]): RestError[] =>
  errors.map((e) => ({ field: restFieldName(e.field), code: e.code, message: e.message }));

/** The status and body for an error raised while executing a route's operation. */
export function fromExecutionError(error: GraphQLError): { status: number; errors: RestError[] } | null {
  const original = error.originalError instanceof AppError ? error.originalError : (rejectedInputError(error.originalError) ?? error.originalError);
  if (original instanceof AppError) {
    const field = original.field.length ? restFieldName(original.field) : 'base';
    return { status: raisedErrors[original.code].http, errors: [{ field, code: original.code, message: original.message }] };
  }
  const code = error.extensions?.code;
  // No path: the request itself failed (a variable its type refuses), before any resolver ran.
  if (code === 'BAD_USER_INPUT' || !error.path || (!original && !code)) {
    return { status: 400, errors: baseError('bad_request', error.message) };
  }
  return null;
}
