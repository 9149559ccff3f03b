import type { Role } from './credential.js';

/**
 * The role matrix: who may do what. Each module declares the rows of the root fields it serves
 * (`rules` in its `defineModule`, src/modules/define-module.ts), and the matrix is assembled from
 * those at start-up: every GraphQL root field (and so every REST route, which runs one) has a row;
 * `auth/guard.ts` reads it for every request, the README renders it, and the isolation test walks
 * it. A root field without a row, or a row naming no field, stops start-up.
 *
 * - `allow`: the role may call it; the school's rows (a platform credential: every school's).
 * - `own`: the role may call it, and sees or changes only its own rows (the resolver filters them:
 *   a student's enrollments, orders, messages, notifications, posts; content its active
 *   enrollments release).
 * - `deny` (or absent): 403.
 * - `public`: needs no credential at all.
 * - `gate`: what a mutation may still do for a school whose status lets its credentials only read
 *   (blocked, suspended: the gate in auth/school-gate.ts). `reads`: it writes nothing
 *   (a SCORM launch mints a signed URI), so it passes as a query does. `lifecycle`: sent with an
 *   `event` alone, it passes when the lifecycle lets the caller fire that event from the school's
 *   status (its admin's `cancel`: a school can always cancel itself). Any other mutation: 403.
 */
export type Access = 'allow' | 'own' | 'deny';
export type Rule = Readonly<Partial<Record<Role, Access>>> & { readonly public?: true; readonly gate?: 'reads' | 'lifecycle' };
export const ROLES: readonly Role[] = ['platform', 'admin', 'collaborator', 'app', 'student'];

const all = (access: Access, roles: readonly Role[]) => Object.fromEntries(roles.map((r) => [r, access])) as Partial<Record<Role, Access>>;

/** The platform and the school's admin: settings, people's credentials, secrets. */
export const MANAGERS: Rule = all('allow', ['platform', 'admin']);
/** Content and teaching: the managers and collaborators (an app reads content, never writes it). */
export const AUTHORS: Rule = all('allow', ['platform', 'admin', 'collaborator']);
/** Commerce and enrolment: the managers and integrations (a collaborator teaches, it does not sell). */
export const SELLERS: Rule = all('allow', ['platform', 'admin', 'app']);
/** Every staff role reads the school's records; a student may not. */
export const STAFF_READ: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app']);
/** Enrolment writes: staff and integrations. */
export const ENROLLERS: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app']);
/** The catalogue a student may buy: every role reads it. */
export const CATALOGUE: Rule = all('allow', ['platform', 'admin', 'collaborator', 'app', 'student']);
/** Staff read all; a student only its own rows (or the content its active enrollments release). */
export const STAFF_AND_OWN: Rule = { ...STAFF_READ, student: 'own' };
/** Posts anyone of the school writes; a student edits only its own. */
export const POSTS: Rule = { ...AUTHORS, app: 'allow', student: 'own' };
export const PLATFORM: Rule = { platform: 'allow' };
export const PUBLIC: Rule = { ...CATALOGUE, public: true };

/** A resource's create, update and delete mutations (`create<Resource>`, ...), one rule for the three. */
export const crud = (resource: string, write: Rule): Record<string, Rule> => ({
  [`Mutation.create${resource}`]: write,
  [`Mutation.update${resource}`]: write,
  [`Mutation.delete${resource}`]: write,
});
/** A resource's show and list queries. */
export const reads = (one: string, many: string, read: Rule): Record<string, Rule> => ({ [`Query.${one}`]: read, [`Query.${many}`]: read });
/** A resource's show and list queries (`read`) and its create, update and delete mutations (`write`). */
export const resource = (one: string, many: string, read: Rule, write: Rule): Record<string, Rule> => ({
  ...reads(one, many, read),
  ...crud(one[0].toUpperCase() + one.slice(1), write),
});

/**
 * Where the README's matrix shows a module's rows: it reads topic by topic, in this order, and
 * within a topic in the service's module order (src/modules/index.ts). The guard ignores topics.
 */
export const TOPICS = [
  'schools',
  'people',
  'catalogue',
  'payment',
  'content',
  'library',
  'learning',
  'progress',
  'commerce',
  'discussions',
  'messages',
  'subscriptions',
  'integrations',
  'events',
] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * Field rules: who sees a field of an object, wherever the object is reached. A role that may not
 * see it reads null (the field is nullable for that reason; a list reads empty), so a new query
 * returning the type cannot leak it.
 * - `secret`: tokens and keys, to the platform and the school's admin only.
 * - `personal`: e-mail, document, phone and address of a person, to staff and to the person.
 * - `answerKey`: what reveals an exam's answers (an option's `correct`), to staff, never to a student.
 */
export type FieldRule = 'secret' | 'personal' | 'answerKey';

/** What one module declares: its root fields' rows by topic, and the rules of its types' fields (`'School.crmToken': 'secret'`). */
export interface ModuleRules {
  readonly operations?: { readonly [T in Topic]?: Readonly<Record<string, Rule>> };
  readonly fields?: Readonly<Record<string, FieldRule>>;
}

/** The assembled matrix: every root field's row (in the README's order) and every field rule. */
export interface RoleMatrix {
  readonly operations: Readonly<Record<string, Rule>>;
  readonly fields: Readonly<Record<string, FieldRule>>;
}

/** The matrix of the modules' declarations, in module order; a row or field rule declared twice stops start-up. */
export function roleMatrixOf(modules: readonly { name: string; rules?: ModuleRules }[]): RoleMatrix {
  const operations: Record<string, Rule> = {};
  const fields: Record<string, FieldRule> = {};
  const owner = new Map<string, string>();
  const claim = (key: string, module: string) => {
    const other = owner.get(key);
    if (other) throw new Error(`The role matrix: ${key} is declared by the modules ${other} and ${module}`);
    owner.set(key, module);
  };
  for (const topic of TOPICS)
    for (const { name, rules } of modules)
      for (const [key, rule] of Object.entries(rules?.operations?.[topic] ?? {})) {
        claim(key, name);
        operations[key] = rule;
      }
  for (const { name, rules } of modules)
    for (const [key, rule] of Object.entries(rules?.fields ?? {})) {
      claim(key, name);
      fields[key] = rule;
    }
  return { operations, fields };
}

/** Who reads a field of each rule; `self` lets the person read its own. */
export const fieldReaders: Readonly<Record<FieldRule, { roles: readonly Role[]; self: boolean }>> = {
  secret: { roles: ['platform', 'admin'], self: false },
  personal: { roles: ['platform', 'admin', 'collaborator', 'app'], self: true },
  answerKey: { roles: ['platform', 'admin', 'collaborator', 'app'], self: false },
};

/** What a role gets for an operation: absent rows and absent roles are denied. */
export function accessOf(rule: Rule | undefined, role: Role): Access {
  return rule?.[role] ?? 'deny';
}
