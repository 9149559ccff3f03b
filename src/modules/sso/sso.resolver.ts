import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import { schools } from '../../db/school.table.js';
import type { Context } from '../../graphql/context.js';
import { AppError, notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload, payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { checkRedirectUri } from '../media/scorm-launch.js';
import { SsoSettingsInput } from './sso.input.js';
import { verifySchoolJwt, useJti } from './sso.jwt.js';
import { completeOidc, startOidc } from './sso.oidc.js';
import { settingsColumns, settingsRowOf, settingsView } from './sso.settings.js';
import { personFor, signInPerson } from './sso.sign-in.js';
import { ssoSettings } from './sso.table.js';
import { OidcAuthorization, SsoSettings, SsoSignIn } from './sso.type.js';

const SsoSettingsPayload = Payload(SsoSettings, 'ssoSettings');
const SsoSignInPayload = Payload(SsoSignIn, 'signIn', 'SsoSignInPayload');
const OidcAuthorizationPayload = Payload(OidcAuthorization, 'oidcAuthorization');

@Resolver(() => SsoSettings)
export class SsoSettingsResolver {
  @Query(() => SsoSettings, { description: "The school's single sign-on settings (secrets never shown). REST: GET /sso_settings." })
  async ssoSettings(@Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return settingsView(schoolId, await settingsRowOf(ctx.db, schoolId));
  }

  @Mutation(() => SsoSettingsPayload, { description: "Sets the school's single sign-on (see SsoSettingsInput). REST: PUT /sso_settings." })
  updateSsoSettings(@Arg('input', () => SsoSettingsInput) input: SsoSettingsInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'ssoSettings', async (tx) => {
      await tx.insert(ssoSettings).values({ schoolId }).onConflictDoNothing();
      const [current] = await tx.select().from(ssoSettings).where(eq(ssoSettings.schoolId, schoolId)).for('update');
      const values = await settingsColumns(input, current, ctx.ssoAllowInsecureIssuers ?? false);
      const [row] = Object.keys(values).length ? await tx.update(ssoSettings).set(values).where(eq(ssoSettings.schoolId, schoolId)).returning() : [current];
      return settingsView(schoolId, row);
    });
  }
}

/** The school an anonymous sign-in names: it must exist (else 404, as for any other id). */
async function namedSchool(ctx: Context, id: string): Promise<number> {
  const schoolId = parseId(id, 'School');
  const [found] = await ctx.db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId)).limit(1);
  if (!found) throw notFound('School');
  return schoolId;
}

/**
 * The sign-ins of single sign-on, anonymous: the school is named by its id, the person proved by
 * the provider or the school's signed token. Failures are raised (401 invalid_sso_token, 403
 * unverified_email / email_domain_not_allowed / sso_no_account, 404 sso_not_configured), not payload errors.
 */
@Resolver(() => SsoSignIn)
export class SsoSignInResolver {
  @Mutation(() => OidcAuthorizationPayload, {
    description:
      "Starts an OpenID Connect sign-in (code flow, PKCE, state and nonce): send the browser to the authorization URL. returnTo, on one of the school's hosts, " +
      'comes back with the sign-in. REST: GET /users/sso/oidc/start?school_id=&return_to= (JSON, not a redirect).',
  })
  async startOidcSignIn(
    @Arg('schoolId', () => ID) schoolId: string,
    @Arg('returnTo', () => String, { nullable: true }) returnTo: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const school = await namedSchool(ctx, schoolId);
    return payload('oidcAuthorization', async () => {
      const checks = new Checks();
      const back = returnTo ? await checkRedirectUri(ctx.db, checks, school, returnTo, 'returnTo') : null;
      checks.throwIfAny();
      return startOidc(ctx.db, school, back, ctx.now(), ctx.ssoAllowInsecureIssuers ?? false);
    });
  }

  @Mutation(() => SsoSignInPayload, {
    description:
      "Finishes an OpenID Connect sign-in with what the provider sent to the redirect URI (code as authorizationCode, state, iss; or error): the person's credential. " +
      'A state is used once. REST: GET /users/sso/oidc/callback (JSON).',
  })
  async completeOidcSignIn(
    @Arg('state', () => String) state: string,
    @Arg('authorizationCode', () => String, { nullable: true, description: 'The `code` the provider sent.' }) code: string | null | undefined,
    @Arg('iss', () => String, { nullable: true }) iss: string | null | undefined,
    @Arg('error', () => String, { nullable: true }) error: string | null | undefined,
    @Arg('errorDescription', () => String, { nullable: true }) errorDescription: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const done = await completeOidc(ctx.db, { state, code, iss, error, errorDescription }, ctx.now(), ctx.ssoAllowInsecureIssuers ?? false);
    return mutate(ctx, 'signIn', async (tx) => {
      const { user, created } = await personFor(tx, done.schoolId, done.settings, done.identity);
      return { ...(await signInPerson(tx, { user, schoolId: done.schoolId, method: 'oidc', now: ctx.now(), settings: ctx.identity })), created, returnTo: done.returnTo };
    });
  }

  @Mutation(() => SsoSignInPayload, {
    description:
      "Signs a person in with a short-lived HS256 JWT the school's site signed with its secret (claims email, first_name, last_name, iat, exp, jti, aud; iss " +
      'when the school set one). A token is used once. REST: POST /users/sso/jwt.',
  })
  async signInWithJwt(@Arg('schoolId', () => ID) schoolId: string, @Arg('jwt', () => String) jwt: string, @Ctx() ctx: Context) {
    const school = await namedSchool(ctx, schoolId);
    const settings = await settingsRowOf(ctx.db, school);
    if (!settings) throw new AppError('sso_not_configured', 'JWT single sign-on is not enabled for this school');
    const now = ctx.now();
    const claims = await verifySchoolJwt(settings, jwt, now);
    return mutate(ctx, 'signIn', async (tx) => {
      await useJti(tx, school, claims.jti, claims.expiresAt, now);
      const { user, created } = await personFor(tx, school, settings, claims);
      return { ...(await signInPerson(tx, { user, schoolId: school, method: 'jwt', now: ctx.now(), settings: ctx.identity })), created, returnTo: null };
    });
  }
}
