/**
 * Sharding by school (Citus, README "Sharding by school"): every table with a NOT NULL school_id is
 * hash-distributed on it, co-located; these are the reference tables, one copy on every node, each
 * shared by all schools or read before the school is known. test/db/sharding.test.ts checks the catalog
 * against this list: a new table is either school-owned or named here.
 */
export const REFERENCE_TABLES: Record<string, string> = {
  schools: 'the tenants themselves: every school-owned row refers to its school',
  organizations: 'groups of schools, above any one school',
  school_domains: "a request's host is resolved to its school before the school is known; a domain is unique across schools",
  api_tokens: 'a credential is found by its digest before its school is known; platform tokens have no school',
  integration_suggestions: "the platform's suggestions (no school) and a school's, written rarely, read with the school's",
  graphql_persisted_queries: 'documents registered by any client, keyed by their hash, shared by every school',
  read_your_writes: "read routing's state per credential (the primary's WAL position after its latest write), read before the school is known",
  rate_limit_buckets: "request budgets per credential or client address, read before the request's school is known",
  sign_in_failures: 'failed sign-ins counted per account digest or client address, before any credential',
};
