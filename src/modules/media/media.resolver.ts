import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { hasRole, inSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, uniqueConstraintField } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import type { ContentScope } from '../../content/scope.js';
import { contentScope, requireEnrollmentForStudent } from '../content/content-scope.js';
import { scopedPage } from '../content/content-read.js';
import { withScopedShow } from '../content/content-show.js';
import { emitRowEvent } from '../events/events.js';
import { imageById, libraryResourceById } from '../library/library.loaders.js';
import { Image, LibraryResource } from '../library/library.type.js';
import { MediaInput, MediaListArgs } from './media.input.js';
import { mediaById, slidesOfMedia } from './media.loaders.js';
import { checkMedia, type CheckedMedia } from './media.rules.js';
import { mediaCondition } from '../../content/media.js';
import { media, type MediaRow, videoSlideSyncs } from './media.table.js';
import { Media, MediaConnection, MediaProcessingStatusEnum, VideoSlideSync } from './media.type.js';

uniqueConstraintField('video_slide_syncs_media_id_sync_at_key', ['videoSlideSyncsAttributes', 'syncAt']);

const guardStudent = (ctx: Context, scope: ContentScope) => requireEnrollmentForStudent(ctx, scope, 'media', '/enrollments/:id/media');

/** Replaces the slides of a media (one statement each way). */
async function storeSlides(tx: Queryable, mediaId: number, schoolId: number, slides: NonNullable<CheckedMedia['slides']>) {
  await tx.delete(videoSlideSyncs).where(eq(videoSlideSyncs.mediaId, mediaId));
  if (slides.length) await tx.insert(videoSlideSyncs).values(slides.map((s) => ({ ...s, mediaId, schoolId })));
}

const MediaBase = resourceResolver({
  type: Media,
  byId: mediaById,
  columns: async (tx, input: MediaInput, { ctx, schoolId, current, afterWrite }) => {
    const { values, slides } = await checkMedia(tx, schoolId, input, current);
    if (slides !== undefined) afterWrite((row) => storeSlides(tx, row.id, row.schoolId, slides));
    if (!current) return values;
    // Slides alone change the media too: its updatedAt moves.
    return Object.keys(values).length === 0 && slides === undefined ? {} : { ...values, updatedAt: ctx.now() };
  },
  descriptions: { update: 'Updates a media; a given videoSlideSyncsAttributes replaces its slides. storageFileUrl cannot change.' },
  // Read through a content scope (a product's, an enrollment's released lessons and extra contents) below.
  omit: ['show', 'list'],
});
const MediaPayload = MediaBase.Payload;

@Resolver(() => Media)
@RelationFields<MediaRow>({
  video: { type: () => Image, loader: imageById, key: 'videoId', nullable: true, description: 'The video of a VideoSlide.' },
  libraryResource: { type: () => LibraryResource, loader: libraryResourceById, key: 'libraryResourceId', nullable: true },
})
export class MediaResolver extends withScopedShow(MediaBase, {
  description:
    "A media; with schoolProductId or enrollmentId, only a media of that scope's lessons and extra contents (404 otherwise). Students need enrollmentId.",
  inScope: mediaCondition,
  guard: guardStudent,
}) {
  @Query(() => MediaConnection, {
    description:
      "The school's media, or a product's or an enrollment's (the media of their lessons and extra contents; through an enrollment, released and available ones). Students need enrollmentId.",
  })
  async mediaList(@Args(() => MediaListArgs) args: MediaListArgs, @Ctx() ctx: Context) {
    const scope = await contentScope(ctx, args);
    guardStudent(ctx, scope);
    const where = and(inSchool(ctx, media.schoolId), mediaCondition(ctx, scope), args.type ? eq(media.type, args.type) : undefined);
    return scopedPage(await paginate(ctx, media, where, args), scope);
  }

  @Mutation(() => MediaPayload, {
    description:
      'Marks a media for processing again: status queued, processingRequestedAt now, processedAt cleared; emits media.reprocess_requested. ' +
      'REST: PUT /media/:id/reprocess or PUT /media/:id?action=reprocess.',
  })
  reprocessMedia(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const mediaId = parseId(id, 'Media');
    return mutate(ctx, 'media', async (tx) => {
      const current = await lockOwned(tx, ctx, media, mediaId, 'Media');
      const now = ctx.now();
      const [row] = await tx
        .update(media)
        .set({ processingStatus: 'queued', processingRequestedAt: now, processedAt: null, updatedAt: now })
        .where(eq(media.id, mediaId))
        .returning();
      await emitRowEvent(tx, 'media.reprocess_requested', current, { type: current.type, previousStatus: current.processingStatus });
      return row;
    });
  }

  @Mutation(() => MediaPayload, {
    description:
      'For the processing worker (an app credential): processing when it starts, ready or failed when it ends ' +
      '(processedAt stamped; emits media.processed). queued is set by reprocessMedia only.',
  })
  reportMediaProcessing(
    @Arg('id', () => ID) id: string,
    @Arg('status', () => MediaProcessingStatusEnum) status: 'queued' | 'processing' | 'ready' | 'failed',
    @Ctx() ctx: Context,
  ) {
    const mediaId = parseId(id, 'Media');
    return mutate(ctx, 'media', async (tx) => {
      if (status === 'queued') new Checks().add('status', 'inclusion', 'is processing, ready or failed (reprocessMedia queues a media)').throwIfAny();
      const current = await lockOwned(tx, ctx, media, mediaId, 'Media');
      const now = ctx.now();
      const done = status !== 'processing';
      const [row] = await tx
        .update(media)
        .set({ processingStatus: status, processedAt: done ? now : null, updatedAt: now })
        .where(eq(media.id, mediaId))
        .returning();
      if (done) {
        await emitRowEvent(tx, 'media.processed', current, { status });
      }
      return row;
    });
  }

  @FieldResolver(() => String, { nullable: true, description: 'The file in object storage (ScormPackage). Not shown to students: they launch it.' })
  storageFileUrl(@Root() row: MediaRow, @Ctx() ctx: Context) {
    return hasRole(ctx, 'student') ? null : row.storageFileUrl;
  }

  @Extensions({ rest: 'embed' })
  @FieldResolver(() => [VideoSlideSync], { description: 'The slides of a VideoSlide, in syncAt order.' })
  slideSyncs(@Root() row: MediaRow, @Ctx() ctx: Context) {
    return row.type === 'VideoSlide' ? ctx.loaders.get(slidesOfMedia).load(row.id) : [];
  }
}

@Resolver(() => VideoSlideSync)
@RelationFields<{ imageId: number }>({
  image: { type: () => Image, loader: imageById, key: 'imageId', nullable: true },
})
export class VideoSlideSyncResolver {}
