import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, text } from 'drizzle-orm/pg-core';
import { namedContentColumns, tstz } from '../../db/columns.js';
import { codedRowIndexes, indexOn, orderedIndex } from '../../db/indexes.js';
import { listTable, schoolTable } from '../../db/tables.js';
import { media } from '../media/media.table.js';

export const courses = schoolTable(
  'courses',
  {
    ...namedContentColumns(),
    duration: integer(),
    code: text(),
    ready: boolean().notNull().default(false),
  },
  (t) => [
    ...codedRowIndexes(t),
    check('courses_duration_non_negative', sql`${t.duration} >= 0`),
  ],
);

/** Modules are shared: one module may belong to several courses (course_module_links). */
export const courseModules = schoolTable(
  'course_modules',
  {
    name: text().notNull(),
    description: text(),
  },
  (t) => [orderedIndex(t.schoolId, t.id)],
);

/** The modules of a course, in order. */
export const courseModuleLinks = listTable('course_module_links', {
  courseId: () => courses.id,
  courseModuleId: () => courseModules.id,
});

export const lessons = schoolTable(
  'lessons',
  {
    /** Nullable: the spec's lesson body has no module, so a lesson may be created before it is placed. */
    courseModuleId: integer().references(() => courseModules.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
    title: text().notNull(),
    type: text().notNull(),
    description: text(),
    available: boolean().notNull().default(true),
    mediaId: integer().references(() => media.id, { onDelete: 'set null' }),
    minGrade: integer(),
    unlockCertificate: boolean().notNull().default(false),
    releaseAt: tstz(),
    /** Days after the enrollment until the lesson is released. */
    releaseAfter: integer(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.courseModuleId, t.position),
    // The drip mail's lessons (mail/mail.drip.ts): the few released later than their enrollment's start.
    index('lessons_drip_idx').on(t.courseModuleId).where(sql`release_at is not null or release_after > 0`),
    indexOn(t.mediaId),
    check('lessons_min_grade_non_negative', sql`${t.minGrade} >= 0`),
    check('lessons_release_after_non_negative', sql`${t.releaseAfter} >= 0`),
  ],
);

export type CourseRow = typeof courses.$inferSelect;
export type CourseModuleRow = typeof courseModules.$inferSelect;
export type LessonRow = typeof lessons.$inferSelect;
