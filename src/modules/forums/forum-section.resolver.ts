import 'reflect-metadata';
import { isNull } from 'drizzle-orm';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { ForumSectionInput, ForumSectionsArgs } from './forum.input.js';
import { childrenOfSection, forumById, questionsOfSection, sectionById } from './forum.loaders.js';
import { checkParent, lockForum, moveSubtree, nextSequence } from './forum.rules.js';
import { forumSections, type ForumSectionRow } from './forum.table.js';
import { Forum, ForumQuestionConnection, ForumSection } from './forum.type.js';

const text = (v: string | null | undefined) => (typeof v === 'string' ? v.trim() : v);

/**
 * The columns of a new section: title and description required, its forum locked (the argument's,
 * else input.forumId, which must be the school's: a 422), a parent of the same forum, and the next
 * sequence of its siblings unless given.
 */
async function newSectionColumns(tx: Queryable, input: ForumSectionInput, schoolId: number, fromPath: number | undefined) {
  const checks = new Checks().required('title', input.title).required('description', input.description).range('sequence', input.sequence, 0);
  let forum = null;
  if (fromPath !== undefined) {
    forum = await lockForum(tx, schoolId, fromPath);
    if (!forum) throw notFound('Forum');
  } else {
    const bodyId = idOrNull(input.forumId);
    forum = bodyId === null ? null : await lockForum(tx, schoolId, bodyId);
    if (input.forumId === undefined || input.forumId === null) checks.add('forumId', 'blank');
    else if (!forum) checks.add('forumId', 'not_found', 'must exist in this school');
  }
  const hasParent = input.parentForumSectionId !== undefined && input.parentForumSectionId !== null;
  const parentId = forum && hasParent ? await checkParent(tx, checks, schoolId, forum.id, input.parentForumSectionId!) : null;
  checks.throwIfAny();
  const sequence = input.sequence ?? (await nextSequence(tx, forum!.id, parentId));
  return {
    forumId: forum!.id,
    parentForumSectionId: parentId,
    title: text(input.title)!,
    description: input.description!,
    sequence,
    category: input.category ?? null,
  };
}

/**
 * The changes of an update: a new parent is checked in one recursive statement (no cycles); a new
 * forum moves the section with its subsections first, and a new place takes the next sequence.
 */
async function sectionChanges(tx: Queryable, input: ForumSectionInput, current: ForumSectionRow) {
  const checks = new Checks()
    .notCleared('title', input.title)
    .notCleared('description', input.description)
    .notCleared('sequence', input.sequence)
    .notCleared('forumId', input.forumId)
    .range('sequence', input.sequence, 0);
  let forumId = current.forumId;
  const newForumId = idOrNull(input.forumId);
  if (input.forumId !== undefined && input.forumId !== null && newForumId !== current.forumId) {
    const forum = newForumId === null ? null : await lockForum(tx, current.schoolId, newForumId);
    if (forum) forumId = forum.id;
    else checks.add('forumId', 'not_found', 'must exist in this school');
  }
  const forumChanged = forumId !== current.forumId;
  let parentId = current.parentForumSectionId;
  if (input.parentForumSectionId === null) parentId = null;
  else if (input.parentForumSectionId !== undefined) parentId = await checkParent(tx, checks, current.schoolId, forumId, input.parentForumSectionId, current.id);
  else if (forumChanged) parentId = null;
  checks.throwIfAny();

  const changes: Partial<ForumSectionRow> = {};
  if (input.title !== undefined) changes.title = text(input.title)!;
  if (input.description !== undefined) changes.description = input.description!;
  if (input.category !== undefined) changes.category = input.category;
  if (parentId !== current.parentForumSectionId) changes.parentForumSectionId = parentId;
  if (input.sequence !== undefined) changes.sequence = input.sequence!;
  else if (forumChanged || parentId !== current.parentForumSectionId) {
    if (!forumChanged) await lockForum(tx, current.schoolId, forumId);
    changes.sequence = await nextSequence(tx, forumId, parentId);
  }
  // The subtree (the section included) changes forum here; a changed forum always changes the sequence too.
  if (forumChanged) await moveSubtree(tx, current, forumId);
  return changes;
}

const ForumSectionBase = resourceResolver({
  type: ForumSection,
  byId: sectionById,
  // A forum named by the argument that is not the school's is a 404; one named in the input is a 422.
  parent: { arg: 'forumId', type: 'Forum', byId: forumById, column: 'forumId', inList: true, optional: true },
  columns: (tx, input: ForumSectionInput, { schoolId, current, parentId }) =>
    current ? sectionChanges(tx, input, current) : newSectionColumns(tx, input, schoolId, parentId),
  listArgs: ForumSectionsArgs,
  listWhere: (_ctx, args: ForumSectionsArgs) => (args.rootsOnly ? isNull(forumSections.parentForumSectionId) : undefined),
  descriptions: {
    list: 'The sections of a forum (nested ones included), in id order.',
    create: 'Adds a section to a forum (the argument, else input.forumId, names it).',
    update:
      'Updates a section; a new parent is checked in one recursive statement (no cycles), a new forum moves its subsections along.',
    delete: 'Deletes the section with its subsections, questions and answers.',
  },
});

@Resolver(() => ForumSection)
@RelationFields<ForumSectionRow>({
  forum: { type: () => Forum, loader: forumById, key: 'forumId' },
  parent: { type: () => ForumSection, loader: sectionById, key: 'parentForumSectionId', nullable: true },
  children: { type: () => [ForumSection], loader: childrenOfSection, key: 'id', description: 'The subsections, in sequence order.' },
})
export class ForumSectionResolver extends ForumSectionBase {
  @FieldResolver(() => ForumQuestionConnection, { description: 'The questions of the section, in id order.' })
  questions(@Root() section: ForumSectionRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return questionsOfSection(ctx, section.id, args);
  }
}
