import { sql } from 'drizzle-orm';
import { check, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolRowTable, schoolTable } from '../../db/tables.js';
import { images, libraryResources } from '../library/library.table.js';

/** Single-table inheritance: plain 'Media' for every media that is not a video with slides or SCORM. */
export const mediaType = pgEnum('media_type', ['Media', 'VideoSlide', 'ScormPackage']);
export const mediaProcessingStatus = pgEnum('media_processing_status', ['ready', 'queued', 'processing', 'failed']);

export const media = schoolTable(
  'media',
  {
    title: text().notNull(),
    type: mediaType().notNull().default('Media'),
    hostKey: text(),
    libraryResourceId: integer().references(() => libraryResources.id, { onDelete: 'set null' }),
    text: text(),
    /** The video of a VideoSlide (the spec calls it an Image identifier). */
    videoId: integer().references(() => images.id, { onDelete: 'set null' }),
    storageFileUrl: text(),
    processingStatus: mediaProcessingStatus().notNull().default('ready'),
    processingRequestedAt: tstz(),
    processedAt: tstz(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.libraryResourceId),
    indexOn(t.videoId),
  ],
);

/** The slides of a VideoSlide: image shown from `syncAt` (seconds into the video). */
export const videoSlideSyncs = schoolRowTable(
  'video_slide_syncs',
  {
    mediaId: belongsTo(() => media.id),
    imageId: integer()
      .notNull()
      .references(() => images.id, { onDelete: 'restrict' }),
    syncAt: integer().notNull(),
  },
  (t) => [
    // One slide per moment of a video.
    uniqueIndexOn(t.mediaId, t.syncAt, t.schoolId),
    indexOn(t.imageId),
    indexOn(t.schoolId),
    check('video_slide_syncs_sync_at_non_negative', sql`${t.syncAt} >= 0`),
  ],
);

export type MediaRow = typeof media.$inferSelect;
