import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { media } from '../media/media.table.js';

export const courses = pgTable(
  'courses',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    description: text(),
    imageUrl: text(),
    duration: integer(),
    code: text(),
    ready: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('courses_school_id_idx').on(t.schoolId, t.id),
    uniqueIndex('courses_school_id_code_key').on(t.schoolId, t.code),
    check('courses_duration_non_negative', sql`${t.duration} >= 0`),
  ],
);

/** Modules are shared: one module may belong to several courses (course_module_links). */
export const courseModules = pgTable(
  'course_modules',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    description: text(),
    ...timestamps,
  },
  (t) => [index('course_modules_school_id_idx').on(t.schoolId, t.id)],
);

/** The modules of a course, in order. */
export const courseModuleLinks = pgTable(
  'course_module_links',
  {
    courseId: belongsTo(() => courses.id),
    courseModuleId: belongsTo(() => courseModules.id),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.courseModuleId] }),
    index('course_module_links_course_module_id_idx').on(t.courseModuleId),
  ],
);

export const lessons = pgTable(
  'lessons',
  {
    id: id(),
    schoolId: schoolRef(),
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
    ...timestamps,
  },
  (t) => [
    index('lessons_school_id_idx').on(t.schoolId, t.id),
    index('lessons_course_module_id_position_idx').on(t.courseModuleId, t.position),
    index('lessons_media_id_idx').on(t.mediaId),
    check('lessons_min_grade_non_negative', sql`${t.minGrade} >= 0`),
    check('lessons_release_after_non_negative', sql`${t.releaseAfter} >= 0`),
  ],
);

export type CourseRow = typeof courses.$inferSelect;
export type CourseModuleRow = typeof courseModules.$inferSelect;
export type CourseModuleLinkRow = typeof courseModuleLinks.$inferSelect;
export type LessonRow = typeof lessons.$inferSelect;
