import 'reflect-metadata';
import { type ClassType, Ctx, Field, ObjectType, registerEnumType } from 'type-graphql';
import type { UserError } from '../errors/app-error.js';
import { DEFAULT_LOCALE, localizedMessage } from '../errors/i18n.js';
import type { Context } from './context.js';
import { domainCodes, type ErrorCode, type ErrorDomain, errorCodes, errorDomainNamed, registerErrorDomains } from './error-codes.js';

/** The error classes and codes live in src/errors/ (below graphql/, rest/ and http/); re-exported for the modules. */
export * from '../errors/app-error.js';

const domainTypes = new Map<ErrorDomain, ClassType<UserError>>();

/**
 * Installs the modules' error domains, each with its `<Domain>Error` type and `<Domain>ErrorCode`
 * enum (made once per domain), before the schema is built: payloads name them lazily.
 */
export function installErrorDomains(domains: readonly ErrorDomain[]): void {
  registerErrorDomains(domains);
  for (const domain of domains) if (!domainTypes.has(domain)) domainTypes.set(domain, makeErrorType(domain));
}

/** The `<Domain>Error` type of an installed domain (`domainErrorType('Webhook')`): call it in a field's type function. */
export function domainErrorType(domainOrName: ErrorDomain | string): ClassType<UserError> {
  const domain = typeof domainOrName === 'string' ? errorDomainNamed(domainOrName) : domainOrName;
  const type = domainTypes.get(domain);
  if (!type) throw new Error(`The error domain ${domain.name} is not installed: the service installs its modules' domains before building the schema`);
  return type;
}

function makeErrorType(domain: ErrorDomain): ClassType<UserError> {
  const { name } = domain;
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

    /** The producer's English message (UserError.message); GraphQL's `message` is `localizedMessage` below. */
    message!: string;

    count?: number;

    @Field(() => String, { name: 'message', description: "Why, in the request's language (Accept-Language: English, Portuguese (Brazil) or Spanish)." })
    localizedMessage(@Ctx() ctx: Context): string {
      return localizedMessage(ctx.locale ?? DEFAULT_LOCALE, this.code, this.message, this.count);
    }
  }
  return DomainError;
}
