import { z } from 'zod';
import { changed, event, id, nullableId } from '../events/catalog.js';

/** The events of courses and lessons (the catalog: events/catalog.ts). */
export const courseEventCatalog = {
  'course.created': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['createCourse', 'duplicateCourse'],
    description: 'A course was created (or copied: duplicatedFromId names the source).',
    payload: z.object({ name: z.string(), code: z.string().nullable(), duplicatedFromId: id.optional() }),
  }),
  'course.updated': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['updateCourse'],
    description: 'A course was changed.',
    payload: z.object({ name: z.string(), code: z.string().nullable(), changed }),
  }),
  'course.deleted': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['deleteCourse'],
    description: 'A course was deleted.',
    payload: z.object({ name: z.string(), code: z.string().nullable() }),
  }),
  'lesson.created': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['createLesson'],
    description: 'A lesson was created.',
    payload: z.object({ title: z.string(), courseModuleId: nullableId }),
  }),
  'lesson.updated': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['updateLesson'],
    description: 'A lesson was changed (or moved).',
    payload: z.object({ title: z.string(), courseModuleId: nullableId, changed }),
  }),
  'lesson.deleted': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['deleteLesson'],
    description: 'A lesson was deleted.',
    payload: z.object({ title: z.string(), courseModuleId: nullableId }),
  }),
};

type CourseEventCatalog = typeof courseEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends CourseEventCatalog {}
}
