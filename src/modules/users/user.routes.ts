import { type Adapt, type AdaptProblem, beyondSpec, param, pathParam, resource, type Route } from '../../rest/route-table.js';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));

/**
 * Edools v1's `user` hash as today's person input: `first_name` and `last_name` join into `full_name`
 * (a `full_name` given wins), `cpf` is the document, and `password_confirmation` must match `password`.
 */
export const edoolsUser: Adapt = {
  fields: {
    first_name: { type: 'string', description: 'Joined with last_name into full_name (a full_name given wins).' },
    last_name: { type: 'string' },
    cpf: { type: 'string', description: 'The document (a document given wins).' },
    password_confirmation: { type: 'string', description: 'Must match password: 422 naming it otherwise.' },
  },
  apply: (user) => {
    const { first_name: first, last_name: last, cpf, password_confirmation: confirmation, ...rest } = user;
    const hash: Record<string, unknown> = { ...rest };
    if (hash.full_name === undefined && (first !== undefined || last !== undefined)) hash.full_name = [text(first), text(last)].filter(Boolean).join(' ');
    if (hash.document === undefined && cpf !== undefined) hash.document = cpf;
    const problems: AdaptProblem[] = [];
    if (confirmation !== undefined && confirmation !== user.password)
      problems.push({ field: 'password_confirmation', code: 'invalid', message: "doesn't match password" });
    return { hash, problems };
  },
};

/**
 * The people the Edools v1 clients manage beyond the spec (`/students`, `/collaborators`), each a row
 * onto the users module's operations. There is no DELETE: removing a person is the erasure
 * (`DELETE /users/:id/personal_data`), and these paths answer it 405 with their Allow header.
 */
function people(segment: string, kind: 'Student' | 'Collaborator'): Route[] {
  const one = kind.charAt(0).toLowerCase() + kind.slice(1);
  const member = `/${segment}/:id`;
  const input = resource('user', { adapt: edoolsUser });
  return beyondSpec(`${kind.toLowerCase()}s, from the v1 \`user\` hash as adapted above; no DELETE (405)`, [
    { method: 'GET', path: `/${segment}`, field: `${one}s`, args: { email: param('email') }, reply: 'list' },
    { method: 'POST', path: `/${segment}`, field: `create${kind}`, args: { input }, reply: 'create', location: member },
    { method: 'GET', path: member, field: one, args: { id: pathParam() }, reply: 'show' },
    { method: ['PUT', 'PATCH'], path: member, field: `update${kind}`, args: { id: pathParam(), input }, reply: 'update', location: member },
  ]);
}

export const userRoutes: Route[] = [...people('students', 'Student'), ...people('collaborators', 'Collaborator')];
