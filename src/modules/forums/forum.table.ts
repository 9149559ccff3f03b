import { boolean, integer, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { childRowIndexes, indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';

/** A school's forum (the wizard creates one per school). */
export const forums = schoolTable(
  'forums',
  {
    title: text().notNull(),
  },
  (t) => [orderedIndex(t.schoolId, t.id)],
);

/** Sections of a forum, nested; `sequence` orders siblings. */
export const forumSections = schoolTable(
  'forum_sections',
  {
    forumId: belongsTo(() => forums.id),
    parentForumSectionId: integer().references((): AnyPgColumn => forumSections.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text(),
    sequence: integer().notNull(),
    category: text(),
  },
  (t) => [
    indexOn(t.forumId, t.parentForumSectionId, t.sequence),
    indexOn(t.parentForumSectionId),
    indexOn(t.schoolId),
  ],
);

export const forumQuestions = schoolTable(
  'forum_questions',
  {
    forumSectionId: belongsTo(() => forumSections.id),
    /** The author; null when the question was posted with a credential bound to no user. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    title: text().notNull(),
    description: text(),
    fixed: boolean().notNull().default(false),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    orderedIndex(t.forumSectionId, t.id),
    orderedIndex(t.userId, t.id),
  ],
);

export const forumAnswers = schoolTable(
  'forum_answers',
  {
    forumQuestionId: belongsTo(() => forumQuestions.id),
    /** The author; null when posted with a credential bound to no user. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    text: text().notNull(),
  },
  (t) => [
    ...childRowIndexes(t, t.forumQuestionId),
    indexOn(t.userId),
  ],
);

export type ForumRow = typeof forums.$inferSelect;
export type ForumSectionRow = typeof forumSections.$inferSelect;
export type ForumQuestionRow = typeof forumQuestions.$inferSelect;
export type ForumAnswerRow = typeof forumAnswers.$inferSelect;
