import 'reflect-metadata';
import { type ClassType, Field, ObjectType, registerEnumType } from 'type-graphql';
import type { UserError } from '../errors/app-error.js';
import { domainCodes, type ErrorCode, type ErrorDomainKey, errorCodes, errorDomains } from './error-codes.js';

/** The error classes and codes live in src/errors/ (below graphql/, rest/ and http/); re-exported for the modules. */
export * from '../errors/app-error.js';

const domainTypes = new Map<ErrorDomainKey, ClassType<UserError>>();

/** The `<Domain>Error` type of a domain's payloads, and its `<Domain>ErrorCode` enum (made once). */
export function domainErrorType(domain: ErrorDomainKey): ClassType<UserError> {
  const known = domainTypes.get(domain);
  if (known) return known;
  const { name } = errorDomains[domain];
  const codes = domainCodes(domain);
  const values = Object.fromEntries(codes.map((c) => [c, c]));
  registerEnumType(values, {
    name: `${name}ErrorCode`,
    description: `Why a mutation of ${name} did not apply (UserError.code).`,
    valuesConfig: Object.fromEntries(codes.map((c) => [c, { description: errorCodes[c].message.replace('%{count}', 'N') }])),
  });
  @ObjectType(`${name}Error`, { description: 'Why a mutation did not apply: the input field path, a stable code and a message.' })
  class DomainError implements UserError {
    @Field(() => [String], { description: 'Path of the input field, empty for the object as a whole.' })
    field!: string[];

    @Field(() => values, { description: `A stable code: ${codes.join(', ')}.` })
    code!: ErrorCode;

    @Field(() => String)
    message!: string;
  }
  domainTypes.set(domain, DomainError);
  return DomainError;
}

