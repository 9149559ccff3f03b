import { text } from 'drizzle-orm/pg-core';

/**
 * The leading columns of a course or a learning path: a name, a description and an image (the
 * fields of `NamedContent`, content.type.ts). A function: each table builds its own columns.
 */
export const namedContentColumns = () => ({
  name: text().notNull(),
  description: text(),
  imageUrl: text(),
});
