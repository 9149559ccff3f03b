import { type ErrorCode } from '../errors/codes.js';

export * from '../errors/codes.js';

/** Payload codes every domain's mutations can return: the shared checks, references and constraint violations. */
export const commonCodes = [
  'blank',
  'invalid',
  'inclusion',
  'not_found',
  'taken',
  'in_use',
  'greater_than_or_equal_to',
  'less_than_or_equal_to',
] as const satisfies readonly ErrorCode[];

/**
 * One error-code enum per domain, as Saleor does: each lists what its payloads may return. A module
 * declares its domain (`errors` in its `defineModule`); the service installs every module's before
 * its schema is built.
 */
export interface ErrorDomain {
  /** The GraphQL names: `<name>Error` and `<name>ErrorCode`. */
  readonly name: string;
  /** The payloads' node types (the first argument of `Payload(...)`) that belong here. */
  readonly nodes: readonly string[];
  /** Payload type names that belong here whatever their node type. */
  readonly payloads?: readonly string[];
  /** The codes of this domain besides `commonCodes`. */
  readonly codes: readonly ErrorCode[];
}

/** The codes a domain's payloads may return: the common ones, then its own. */
export const domainCodes = (domain: ErrorDomain): ErrorCode[] => [...new Set<ErrorCode>([...commonCodes, ...domain.codes])];

/** Every installed domain by its name (a process holds one set of GraphQL types). */
const installed = new Map<string, ErrorDomain>();

/** Adds the modules' domains; the same domain twice is one, another with a taken name, node or payload stops start-up. */
export function registerErrorDomains(domains: readonly ErrorDomain[]): void {
  for (const domain of domains) {
    const known = installed.get(domain.name);
    if (known === domain) continue;
    if (known) throw new Error(`Two error domains are named ${domain.name}`);
    for (const other of installed.values()) {
      const shared = [...domain.nodes, ...(domain.payloads ?? [])].filter((n) => other.nodes.includes(n) || other.payloads?.includes(n));
      if (shared.length) throw new Error(`The error domains ${other.name} and ${domain.name} both claim ${shared.join(', ')}`);
    }
    installed.set(domain.name, domain);
  }
}

/** An installed domain by its name. */
export function errorDomainNamed(name: string): ErrorDomain {
  const found = installed.get(name);
  if (!found) throw new Error(`No module declares the error domain ${name}`);
  return found;
}

/** The domain of a payload: by its type name, else by its node type's name. */
export function domainOf(payloadName: string, nodeName?: string): ErrorDomain {
  const domains = [...installed.values()];
  const found = domains.find((d) => d.payloads?.includes(payloadName)) ?? (nodeName === undefined ? undefined : domains.find((d) => d.nodes.includes(nodeName)));
  if (!found) throw new Error(`No error domain for the payload ${payloadName}${nodeName ? ` (of ${nodeName})` : ''}: name it in its module's errors (defineModule)`);
  return found;
}

/** Whether a GraphQL type is one of the domains' `<Domain>Error` types (REST reads payloads' errors by it). */
export const isDomainErrorType = (typeName: string): boolean => [...installed.values()].some((d) => `${d.name}Error` === typeName);
