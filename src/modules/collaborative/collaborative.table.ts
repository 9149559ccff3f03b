import { integer, text } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { childRowIndexes, indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';
import { lessons } from '../courses/course.table.js';

/** A discussion thread, usually about a lesson. */
export const collaborativeDiscussions = schoolTable(
  'collaborative_discussions',
  {
    title: text().notNull(),
    lessonId: integer().references(() => lessons.id, { onDelete: 'cascade' }),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.lessonId),
  ],
);

export const collaborativeComments = schoolTable(
  'collaborative_comments',
  {
    collaborativeDiscussionId: belongsTo(() => collaborativeDiscussions.id),
    userId: belongsTo(() => users.id),
    text: text().notNull(),
  },
  (t) => [
    ...childRowIndexes(t, t.collaborativeDiscussionId),
    indexOn(t.userId),
  ],
);

export type CollaborativeDiscussionRow = typeof collaborativeDiscussions.$inferSelect;
export type CollaborativeCommentRow = typeof collaborativeComments.$inferSelect;
