import 'reflect-metadata';
import { Arg, Ctx, Extensions, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { findOr404, loadMany } from '../../graphql/loaders.js';
import { parseId } from '../../graphql/ids.js';
import { imageById } from '../library/library.loaders.js';
import { publicMediaById, slidesOfMedia } from './media.loaders.js';
import type { MediaRow } from './media.table.js';
import { PublicMedia, PublicSlide } from './media.type.js';

@Resolver(() => PublicMedia)
export class PublicMediaResolver {
  @Query(() => PublicMedia, { description: 'The public view of a media, read without a credential. REST: GET /media/public/:id.' })
  publicMedia(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, publicMediaById, parseId(id, 'Media'), 'Media');
  }

  @Extensions({ rest: 'embed' })
  @FieldResolver(() => [PublicSlide], { description: 'The slides of a VideoSlide, in syncAt order, with their image URLs.' })
  async slides(@Root() row: MediaRow, @Ctx() ctx: Context): Promise<PublicSlide[]> {
    if (row.type !== 'VideoSlide') return [];
    const slides = await ctx.loaders.get(slidesOfMedia).load(row.id);
    const images = new Map((await loadMany(ctx, imageById, slides.map((s) => s.imageId))).map((i) => [i.id, i]));
    return slides.flatMap((s) => {
      const image = images.get(s.imageId);
      return image ? [{ syncAt: s.syncAt, imageUrl: image.url }] : [];
    });
  }
}
