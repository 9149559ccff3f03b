import type { UserError } from '../graphql/errors.js';
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
