import { boolean, index, integer, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';

/** A school's forum (the wizard creates one per school). */
export const forums = pgTable(
  'forums',
  {
    id: id(),
    schoolId: schoolRef(),
    title: text().notNull(),
    ...timestamps,
  },
  (t) => [index('forums_school_id_idx').on(t.schoolId, t.id)],
);

/** Sections of a forum, nested; `sequence` orders siblings. */
export const forumSections = pgTable(
  'forum_sections',
  {
    id: id(),
    schoolId: schoolRef(),
    forumId: belongsTo(() => forums.id),
    parentForumSectionId: integer().references((): AnyPgColumn => forumSections.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text(),
    sequence: integer().notNull(),
    category: text(),
    ...timestamps,
  },
  (t) => [
    index('forum_sections_forum_id_parent_forum_section_id_sequence_idx').on(
      t.forumId,
      t.parentForumSectionId,
      t.sequence,
    ),
    index('forum_sections_parent_forum_section_id_idx').on(t.parentForumSectionId),
    index('forum_sections_school_id_idx').on(t.schoolId),
  ],
);

export const forumQuestions = pgTable(
  'forum_questions',
  {
    id: id(),
    schoolId: schoolRef(),
    forumSectionId: belongsTo(() => forumSections.id),
    /** The author; null when the question was posted with a credential bound to no user. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    title: text().notNull(),
    description: text(),
    fixed: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('forum_questions_school_id_idx').on(t.schoolId, t.id),
    index('forum_questions_forum_section_id_idx').on(t.forumSectionId, t.id),
    index('forum_questions_user_id_idx').on(t.userId, t.id),
  ],
);

export const forumAnswers = pgTable(
  'forum_answers',
  {
    id: id(),
    schoolId: schoolRef(),
    forumQuestionId: belongsTo(() => forumQuestions.id),
    /** The author; null when posted with a credential bound to no user. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    text: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index('forum_answers_forum_question_id_idx').on(t.forumQuestionId, t.id),
    index('forum_answers_user_id_idx').on(t.userId),
    index('forum_answers_school_id_idx').on(t.schoolId),
  ],
);

export type ForumRow = typeof forums.$inferSelect;
export type ForumSectionRow = typeof forumSections.$inferSelect;
export type ForumQuestionRow = typeof forumQuestions.$inferSelect;
export type ForumAnswerRow = typeof forumAnswers.$inferSelect;
