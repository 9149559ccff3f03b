import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { ForumInput } from './forum.input.js';
import { forumById, rootSectionsOfForum, sectionsOfForum } from './forum.loaders.js';
import { forums, type ForumRow } from './forum.table.js';
import { Forum, ForumSection } from './forum.type.js';

const ForumBase = resourceResolver({
  type: Forum,
  table: forums,
  byId: forumById,
  columns: (_tx, input: ForumInput, { current }) => {
    new Checks()[current ? 'notCleared' : 'required']('title', input.title).throwIfAny();
    return input.title === undefined ? {} : { title: input.title!.trim() };
  },
  descriptions: { list: 'The forums of the school.', delete: 'Deletes the forum with its sections, questions and answers.' },
});

@Resolver(() => Forum)
export class ForumResolver extends ForumBase {
  @FieldResolver(() => School)
  school(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(schoolById).load(forum.schoolId);
  }

  @FieldResolver(() => [ForumSection], { description: 'Every section of the forum, nested ones included, in sequence order.' })
  sections(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(sectionsOfForum).load(forum.id);
  }

  @FieldResolver(() => [ForumSection], { description: 'The top-level sections, in sequence order (their children field walks the tree).' })
  rootSections(@Root() forum: ForumRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(rootSectionsOfForum).load(forum.id);
  }
}
