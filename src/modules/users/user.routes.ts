import { type Adapt, type AdaptProblem, beyondSpec, param, pathParam, resource, type Route, rows } from '../../rest/route-table.js';

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
function people(segment: string, kind: 'Student' | 'Collaborator' | 'Admin'): Route[] {
  const one = kind.charAt(0).toLowerCase() + kind.slice(1);
  const member = `/${segment}/:id`;
  const input = resource('user', { adapt: edoolsUser });
  return [
    { method: 'GET', path: `/${segment}`, field: `${one}s`, args: { email: param('email') }, reply: 'list' },
    { method: 'POST', path: `/${segment}`, field: `create${kind}`, args: { input }, reply: 'create', location: member },
    { method: 'GET', path: member, field: one, args: { id: pathParam() }, reply: 'show' },
    { method: ['PUT', 'PATCH'], path: member, field: `update${kind}`, args: { id: pathParam(), input }, reply: 'update', location: member },
  ];
}
const edools = (kind: string, routes: Route[]) => beyondSpec(`${kind}, from the v1 \`user\` hash as adapted above; no DELETE (405)`, routes);

export const userRoutes: Route[] = [
  ...edools('students', people('students', 'Student')),
  ...edools('collaborators', people('collaborators', 'Collaborator')),
  // Edools v1's invitation: the `invitation` hash in the v1 form; 201 with a new student, 200 when a person of the school is invited again.
  ...beyondSpec('invites a person by e-mail to set their password (invitePerson): a new e-mail makes a student, a known one is invited again', [
    {
      method: 'POST',
      path: '/invitations',
      field: 'invitePerson',
      args: { input: resource('invitation', { adapt: edoolsUser }) },
      reply: 'create',
      location: '/students/:id',
      createdFlag: 'created',
    },
  ]),
  // Edools v1's addresses of a student (any person of the school, by id), the `address` hash; read, changed and deleted by id.
  ...beyondSpec("a person's postal addresses", [
    ...rows.resource('/students/:student_id/addresses', '/addresses/:id', 'address', 'addresses', { args: { userId: pathParam('student_id') } }),
  ]),
  // The REST twin of the GraphQL-only admins, in the same form.
  ...people('admins', 'Admin'),
];
