import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { ImageInput } from './library.input.js';
import { imageById } from './library.loaders.js';
import { httpUrl, optionalText } from './library.rules.js';
import { images } from './library.table.js';
import { Image } from './library.type.js';

/** The columns a create or an update writes: url required on create (http or https), sizes positive. */
function imageColumns(input: ImageInput, creating: boolean) {
  const checks = new Checks().present(creating, 'url', input.url);
  const url = httpUrl(checks, 'url', input.url);
  for (const field of ['width', 'height'] as const) {
    const size = input[field];
    if (size !== undefined && size !== null && size < 1) checks.add(field, 'greater_than', undefined, 0);
  }
  checks.throwIfAny();
  const values: Partial<typeof images.$inferInsert> = {};
  if (url) values.url = url;
  if (input.title !== undefined) values.title = optionalText(input.title);
  if (input.contentType !== undefined) values.contentType = optionalText(input.contentType);
  if (input.width !== undefined) values.width = input.width;
  if (input.height !== undefined) values.height = input.height;
  return values;
}

@Resolver(() => Image)
export class ImageResolver extends resourceResolver({
  type: Image,
  byId: imageById,
  columns: (_tx, input: ImageInput, { current }) => imageColumns(input, !current),
  descriptions: { list: "The school's images.", delete: 'Deletes an image; in_use while a video slide shows it.' },
}) {}
