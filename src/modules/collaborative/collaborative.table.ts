import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';
import { lessons } from '../courses/course.table.js';

/** A discussion thread, usually about a lesson. */
export const collaborativeDiscussions = pgTable(
  'collaborative_discussions',
  {
    id: id(),
    schoolId: schoolRef(),
    title: text().notNull(),
    lessonId: integer().references(() => lessons.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('collaborative_discussions_school_id_idx').on(t.schoolId, t.id),
    index('collaborative_discussions_lesson_id_idx').on(t.lessonId),
  ],
);

export const collaborativeComments = pgTable(
  'collaborative_comments',
  {
    id: id(),
    schoolId: schoolRef(),
    collaborativeDiscussionId: belongsTo(() => collaborativeDiscussions.id),
    userId: belongsTo(() => users.id),
    text: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index('collaborative_comments_collaborative_discussion_id_idx').on(t.collaborativeDiscussionId, t.id),
    index('collaborative_comments_user_id_idx').on(t.userId),
    index('collaborative_comments_school_id_idx').on(t.schoolId),
  ],
);

export type CollaborativeDiscussionRow = typeof collaborativeDiscussions.$inferSelect;
export type CollaborativeCommentRow = typeof collaborativeComments.$inferSelect;
