import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { idMatch } from '../../graphql/filters.js';
import { findOr404 } from '../../graphql/loaders.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { mediaById } from '../media/media.loaders.js';
import { Media } from '../media/media.type.js';
import { ExtraContentInput, ExtraContentsArgs } from './extra-content.input.js';
import { extraContentById } from './extra-content.loaders.js';
import { checkExtraContent, resourceTypeOf } from './extra-content.rules.js';
import { type ExtraContentRow, extraContents } from './extra-content.table.js';
import { ExtraContent } from './extra-content.type.js';

@Resolver(() => ExtraContent)
export class ExtraContentResolver extends resourceResolver({
  type: ExtraContent,
  byId: extraContentById,
  columns: (tx, input: ExtraContentInput, { schoolId, current }) => checkExtraContent(tx, schoolId, input, current),
  listArgs: ExtraContentsArgs,
  listWhere: (_ctx, args: ExtraContentsArgs) => {
    const type = args.resourceType?.trim() ? resourceTypeOf(args.resourceType) : undefined;
    return and(
      // A type that names no resource type matches nothing.
      type === null ? eq(extraContents.id, 0) : type ? eq(extraContents.resourceType, type) : undefined,
      idMatch(extraContents.resourceId, args.resourceId),
      idMatch(extraContents.mediaId, args.mediaId),
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
