import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { AppError, forbidden, notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { Payload, payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { enrollmentScope, isActiveEnrollment } from '../../content/scope.js';
import { enrollmentById } from '../enrollments/enrollment.loaders.js';
import { attendanceRefusal } from '../../content/attendance.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { mediaById, publicMediaById } from './media.loaders.js';
import { mediaCondition } from '../../content/media.js';
import { media, type MediaRow } from './media.table.js';
import { ScormLaunch, ScormSession } from './media.type.js';
import { checkRedirectUri, launchUri, readLaunchToken } from './scorm-launch.js';

export const ScormLaunchPayload = Payload(ScormLaunch, 'launch', 'ScormLaunchPayload');

/** The enrollment a launch is for: of the media's school (a student's own), active, and giving access to the media. */
async function checkEnrollment(ctx: Context, checks: Checks, row: MediaRow, rawId: string | null | undefined) {
  checks.required('enrollmentId', rawId);
  const id = idOrNull(rawId);
  if (rawId == null || rawId === '') return null;
  const enrollment = id === null ? null : await ctx.loaders.get(enrollmentById).load(id);
  if (!enrollment || enrollment.schoolId !== row.schoolId) {
    checks.add('enrollmentId', 'not_found', 'must be an enrollment of this school');
    return null;
  }
  const now = ctx.now();
  if (!isActiveEnrollment(enrollment, now)) {
    checks.add('enrollmentId', 'inactive', `is not active (${enrollment.status}${enrollment.status === 'active' ? ', expired' : ''})`);
    return null;
  }
  // Past its attendance limit the enrollment releases nothing more (as every content read through it).
  const refusal = await attendanceRefusal(ctx.db, enrollment, now, null);
  if (refusal) throw forbidden(refusal);
  const scope = enrollmentScope(enrollment, now);
  const [hit] = await ctx.db.select({ id: media.id }).from(media).where(and(eq(media.id, row.id), mediaCondition(ctx, scope)));
  if (!hit) {
    checks.add('enrollmentId', 'no_access', "does not give access to this media: it is not in the enrolled product's released content");
    return null;
  }
  return enrollment.id;
}

/**
 * A launch (or, without an enrollment, a preview) of a SCORM media, as a payload: problems are
 * UserErrors. It writes nothing, so it reads outside a transaction.
 */
function launch(ctx: Context, id: string, redirectUri: string | null | undefined, enrollment: { id: string | null | undefined } | null) {
  const mediaId = parseId(id, 'Media');
  return payload('launch', async () => {
    const row = await findOr404(ctx, mediaById, mediaId, 'Media');
    const checks = new Checks();
    if (row.type !== 'ScormPackage') {
      checks.add(null, 'not_scorm', `only a ScormPackage can be ${enrollment ? 'launched' : 'previewed'}; this media is a ${row.type}`).throwIfAny();
    }
    const redirect = await checkRedirectUri(ctx.db, checks, row.schoolId, redirectUri);
    const enrollmentId = enrollment ? await checkEnrollment(ctx, checks, row, enrollment.id) : null;
    checks.throwIfAny();
    const claims = { mediaId, enrollmentId, schoolId: row.schoolId, redirectUri: redirect! };
    return { ...claims, ...launchUri(claims, ctx.now()) };
  });
}

@Resolver(() => ScormLaunch)
export class ScormResolver {
  @Mutation(() => ScormLaunchPayload, {
    description:
      "A launch URI of a SCORM media for staff, with no enrollment. redirectUri (where the player exits to) must be on one of the school's domains. " +
      'REST: GET or POST /media/:id/preview.',
  })
  previewMedia(
    @Arg('id', () => ID) id: string,
    @Arg('redirectUri', () => String, { nullable: true }) redirectUri: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return launch(ctx, id, redirectUri, null);
  }

  @Mutation(() => ScormLaunchPayload, {
    description:
      "A launch URI of a SCORM media for an enrollment: active, of a product whose released content holds the media (a student's own). " +
      "redirectUri must be on one of the school's domains. REST: GET or POST /media/:id/launch_scorm.",
  })
  launchScorm(
    @Arg('id', () => ID) id: string,
    @Arg('enrollmentId', () => ID, { nullable: true }) enrollmentId: string | null | undefined,
    @Arg('redirectUri', () => String, { nullable: true }) redirectUri: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return launch(ctx, id, redirectUri, { id: enrollmentId });
  }

  @Query(() => ScormSession, {
    description:
      'Opens a launch URI: what its token grants, with no other credential. An invalid, tampered or expired token is UNAUTHENTICATED; ' +
      'an enrollment that is no longer active is FORBIDDEN. REST: GET /scorm/launch?token=...',
  })
  async scormLaunch(@Arg('token', () => String) token: string, @Ctx() ctx: Context): Promise<ScormSession> {
    const claims = readLaunchToken(token, ctx.now());
    if (!claims) throw new AppError('unauthenticated', 'The launch token is invalid or has expired');
    const row = await ctx.loaders.get(publicMediaById).load(claims.mediaId);
    if (!row || row.schoolId !== claims.schoolId || row.type !== 'ScormPackage' || !row.storageFileUrl) throw notFound('Media');
    if (claims.enrollmentId !== null) {
      const [enrollment] = await ctx.db
        .select()
        .from(enrollments)
        .where(and(eq(enrollments.id, claims.enrollmentId), eq(enrollments.schoolId, claims.schoolId)));
      if (!enrollment || !isActiveEnrollment(enrollment, ctx.now())) throw forbidden('The enrollment of this launch is no longer active');
    }
    return {
      mediaId: row.id,
      enrollmentId: claims.enrollmentId,
      preview: claims.enrollmentId === null,
      title: row.title,
      packageUrl: row.storageFileUrl,
      redirectUri: claims.redirectUri,
      expiresAt: claims.expiresAt,
    };
  }
}
