/** What the cluster run and the soak send: GraphQL over HTTP to HAProxy or one instance. */
export interface Reply<T = any> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function gql<T = any>(base: string, token: string | null, query: string, variables?: Record<string, unknown>, timeoutMs = 60_000): Promise<Reply<T>> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json().catch(() => ({}))) as { data?: T; errors?: Reply['errors'] };
  return { status: res.status, data: body.data, errors: body.errors };
}

/** The data of a reply that must succeed, its payload's `errors` empty too. */
export async function must<T = any>(base: string, token: string | null, query: string, variables?: Record<string, unknown>): Promise<T> {
  const reply = await gql<T>(base, token, query, variables);
  if (reply.status !== 200 || reply.errors?.length) throw new Error(`${reply.status} ${JSON.stringify(reply.errors)} for ${query.slice(0, 80)}`);
  for (const payload of Object.values(reply.data as object)) {
    const errors = (payload as { errors?: unknown[] } | null)?.errors;
    if (errors?.length) throw new Error(`payload errors ${JSON.stringify(errors)} for ${query.slice(0, 80)}`);
  }
  return reply.data as T;
}

export const WIZARD = `mutation ($input: SchoolWizardInput!) { schoolWizard(input: $input) { school { id } admin { credentials } errors { code message } } }`;
export const CREATE_COURSE = `mutation ($input: CourseInput!) { createCourse(input: $input) { course { id name } errors { code message } } }`;
export const COURSE = `query ($id: ID!) { course(id: $id) { id name } }`;

/** A new school through `base`, and its admin's token. */
export async function newSchool(base: string, platformToken: string, name: string): Promise<{ schoolId: string; admin: string }> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const data = await must(base, platformToken, WIZARD, { input: { name, email: `owner-${suffix}@cluster.example`, password: 'cluster-pass-1234' } });
  return { schoolId: data.schoolWizard.school.id, admin: data.schoolWizard.admin.credentials };
}
