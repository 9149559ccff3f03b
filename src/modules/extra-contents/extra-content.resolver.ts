import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { idOrNull } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { mediaById } from '../media/media.loaders.js';
import { Media } from '../media/media.type.js';
import { ExtraContentInput, ExtraContentsArgs } from './extra-content.input.js';
import { extraContentById } from './extra-content.loaders.js';
import { checkExtraContent, resourceTypeOf } from './extra-content.rules.js';
import { type ExtraContentRow, extraContents } from './extra-content.table.js';
import { ExtraContent } from './extra-content.type.js';

/** An id filter: an id that names no record matches nothing (0 is never an id). */
const idFilter = (value: string) => idOrNull(value) ?? 0;

@Resolver(() => ExtraContent)
export class ExtraContentResolver extends resourceResolver({
  type: ExtraContent,
  table: extraContents,
  byId: extraContentById,
  columns: (tx, input: ExtraContentInput, { schoolId, current }) => checkExtraContent(tx, schoolId, input, current),
  listArgs: ExtraContentsArgs,
  listWhere: (_ctx, args: ExtraContentsArgs) => {
    const type = args.resourceType?.trim() ? resourceTypeOf(args.resourceType) : undefined;
    return and(
      // A type that names no resource type matches nothing.
      type === null ? eq(extraContents.id, 0) : type ? eq(extraContents.resourceType, type) : undefined,
      args.resourceId != null ? eq(extraContents.resourceId, idFilter(args.resourceId)) : undefined,
      args.mediaId != null ? eq(extraContents.mediaId, idFilter(args.mediaId)) : undefined,
    );
  },
  descriptions: {
    list: "The school's extra contents (id order), narrowed by resource (type in any spelling, id) and media. Students read them through Lesson/Course/SchoolProduct.extraContents.",
  },
}) {
  @FieldResolver(() => Media)
  media(@Root() extraContent: ExtraContentRow, @Ctx() ctx: Context) {
    return findOr404(ctx, mediaById, extraContent.mediaId, 'Media');
  }
}
