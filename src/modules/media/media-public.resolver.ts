import 'reflect-metadata';
import { Arg, Ctx, Extensions, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { findOr404 } from '../../graphql/loaders.js';
import { parseId } from '../../graphql/ids.js';
import { publicMediaById, publicSlidesOfMedia } from './media.loaders.js';
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
  slides(@Root() row: MediaRow, @Ctx() ctx: Context) {
    return row.type === 'VideoSlide' ? ctx.loaders.get(publicSlidesOfMedia).load(row.id) : [];
  }
}
