import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accessOf, ROLES } from '../../src/auth/role-matrix.js';
import { errorCodes } from '../../src/errors/codes.js';
import { eventCatalog } from '../../src/modules/events/catalog.js';
import { service } from '../../src/service-modules.js';
import { artifacts } from '../../src/tools/artifacts.js';

// Issue 26's "every new operation has its row in the role matrix, its error codes in the table (with
// pt-BR and es messages), its events in the catalog, and its REST route in the OpenAPI document",
// named one by one (the generic walks, isolation.test.ts and artifacts.test.ts, prove the rest).

const OPERATIONS = [
  'Mutation.signIn',
  'Mutation.refreshToken',
  'Mutation.signOut',
  'Mutation.changePassword',
  'Mutation.requestPasswordReset',
  'Mutation.resetPassword',
  'Query.apiTokens',
  'Mutation.createApiToken',
  'Mutation.revokeApiToken',
  'Query.ssoSettings',
  'Mutation.updateSsoSettings',
  'Mutation.startOidcSignIn',
  'Mutation.completeOidcSignIn',
  'Mutation.signInWithJwt',
  'Query.exportPerson',
  'Mutation.erasePerson',
];

const ROUTES: [string, string][] = [
  ['post', '/users/sign_in'],
  ['post', '/users/refresh_token'],
  ['delete', '/users/sign_out'],
  ['put', '/users/change_password'],
  ['post', '/users/password'],
  ['put', '/users/password'],
  ['get', '/api_tokens'],
  ['post', '/api_tokens'],
  ['delete', '/api_tokens/{id}'],
  ['get', '/sso_settings'],
  ['put', '/sso_settings'],
  ['get', '/users/sso/oidc/start'],
  ['get', '/users/sso/oidc/callback'],
  ['post', '/users/sso/jwt'],
  ['get', '/users/{id}/personal_data'],
  ['delete', '/users/{id}/personal_data'],
];

const CODES = ['invalid_credentials', 'token_expired', 'rate_limited', 'too_short', 'too_long', 'too_common', 'invalid_sso_token', 'unverified_email', 'sso_not_configured', 'email_domain_not_allowed', 'sso_no_account', 'erased'] as const;

describe('issue 26 in the shared tables', () => {
  it('every operation has a role-matrix row naming each role', () => {
    const rules = service.roleMatrix.operations;
    for (const key of OPERATIONS) {
      expect(rules[key], key).toBeDefined();
      for (const role of ROLES) expect(['allow', 'own', 'deny'], `${key} ${role}`).toContain(accessOf(rules[key], role));
    }
    // The anonymous ones, and the managers' ones.
    for (const key of ['Mutation.signIn', 'Mutation.refreshToken', 'Mutation.requestPasswordReset', 'Mutation.resetPassword', 'Mutation.signInWithJwt']) expect(rules[key].public, key).toBe(true);
    for (const key of ['Query.apiTokens', 'Mutation.createApiToken', 'Mutation.revokeApiToken'])
      expect(ROLES.map((role) => [role, accessOf(rules[key], role)]), key).toEqual(ROLES.map((role) => [role, role === 'platform' || role === 'admin' ? 'allow' : 'deny']));
  });

  it('user.signed_in, user.password_changed, token.revoked and user.erased are in the events catalog', () => {
    for (const name of ['user.signed_in', 'user.password_changed', 'token.revoked', 'user.erased']) expect(Object.keys(eventCatalog), name).toContain(name);
  });

  it('every REST route is in the OpenAPI document', async () => {
    const document = JSON.parse(await artifacts.openapi.render()) as { paths: Record<string, Record<string, unknown>> };
    for (const [method, path] of ROUTES) expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it('every error code is in the table, with pt-BR and es messages', () => {
    const locales = ['pt-BR', 'es'].map((locale) => JSON.parse(readFileSync(`src/errors/locales/${locale}.json`, 'utf8')) as { errors: Record<string, string> });
    for (const code of CODES) {
      expect(errorCodes[code], code).toBeDefined();
      for (const locale of locales) expect(locale.errors[code], code).toEqual(expect.any(String));
    }
  });
});
