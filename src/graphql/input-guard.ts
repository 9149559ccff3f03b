import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, type DocumentNode, type GraphQLError, Kind, visit } from 'graphql';
import { raisedStatus } from '../errors/codes.js';
import { errorReply } from '../errors/reply.js';
import type { Context } from './context.js';

/** How deep a request value may nest (objects and lists): far beyond any real input, far below a stack overflow. */
export const MAX_INPUT_DEPTH = 64;

export interface InputFlaw {
  /** Where the flaw is, from the top of the value (keys and list indexes). */
  path: (string | number)[];
  code: 'invalid_characters' | 'too_deep';
  message: string;
}

// A NUL byte (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (no UTF-8 encoding exists).
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textFlaw(text: string, path: (string | number)[], inKey = false): InputFlaw | null {
  const problem = NUL.test(text) ? 'a NUL byte' : LONE_SURROGATE.test(text) ? 'an unpaired UTF-16 surrogate' : null;
  if (!problem) return null;
  // A flawed key is named by its object: the key itself is not echoed back.
  return { path, code: 'invalid_characters', message: `${inKey ? 'has a key that contains' : 'contains'} ${problem}, which text cannot hold` };
}

/**
 * The first thing in a request value that no field may hold: text with a NUL byte or a lone
 * surrogate (in a value or a key), or nesting deeper than MAX_INPUT_DEPTH. Walks with its own
 * stack, so a value of any depth is checked without recursion.
 */
export function inputFlaw(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputFlaw | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const flaw = textFlaw(v, path);
      if (flaw) return flaw;
      continue;
    }
    if (typeof v !== 'object' || v === null || Buffer.isBuffer(v)) continue;
    if (path.length >= maxDepth) return { path, code: 'too_deep', message: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
    else
      for (const [key, item] of Object.entries(v)) {
        const flaw = textFlaw(key, path, true);
        if (flaw) return flaw;
        stack.push({ value: item, path: [...path, key] });
      }
  }
  return null;
}

const badInput = (where: string, flaw: InputFlaw) =>
  errorReply('graphql', { code: 'bad_request', message: `${where} ${flaw.message}`, extensions: { field: flaw.path.map(String), http: { status: raisedStatus('bad_request') } } });

/**
 * GraphQL's one gate for input text: variables and the document's string literals are checked
 * before execution, so no resolver sees a value the database would fail on.
 */
const cleanDocuments = new WeakSet<object>();

/** The refusal of a request whose variables or string literals hold what no field may: checked before execution. */
export function inputRefusal(variableValues: Record<string, unknown> | undefined, document: DocumentNode): GraphQLError | undefined {
  const variables = inputFlaw(variableValues ?? {});
  if (variables) return badInput(`Variable ${variables.path.length ? `$${variables.path.join('.')}` : ''}`.trim(), variables);
  // A document's literals are the same every time it comes: checked once per parsed document.
  if (cleanDocuments.has(document)) return undefined;
  let flawed: GraphQLError | undefined;
  visit(document, {
    [Kind.STRING](node) {
      const flaw = textFlaw(node.value, []);
      if (!flaw) return undefined;
      flawed = badInput('A string literal', flaw);
      return BREAK;
    },
  });
  if (!flawed) cleanDocuments.add(document);
  return flawed;
}

export const inputGuard: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document }) {
        const refused = inputRefusal(request.variables, document);
        if (refused) throw refused;
      },
    };
  },
};
