import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { ImageInput } from './library.input.js';
import { imageById } from './library.loaders.js';
import { httpUrl, optionalText } from './library.rules.js';
import { images } from './library.table.js';
import { Image, ImageConnection } from './library.type.js';

export const ImagePayload = Payload(Image, 'image');

/** The columns a create or an update writes: url required on create (http or https), sizes positive. */
function imageColumns(input: ImageInput, creating: boolean) {
  const checks = new Checks();
  if (creating) checks.required('url', input.url);
  else checks.notCleared('url', input.url);
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
export class ImageResolver {
  @Query(() => Image)
  image(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, imageById, parseId(id, 'Image'), 'Image');
  }

  @Query(() => ImageConnection, { description: "The school's images." })
  images(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, images, inSchool(ctx, images.schoolId), args);
  }

  @Mutation(() => ImagePayload)
  createImage(@Arg('input', () => ImageInput) input: ImageInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'image', async (tx) => {
      const values = imageColumns(input, true);
      const [row] = await tx.insert(images).values({ ...values, url: values.url!, schoolId }).returning();
      return row;
    });
  }

  @Mutation(() => ImagePayload)
  updateImage(@Arg('id', () => ID) id: string, @Arg('input', () => ImageInput) input: ImageInput, @Ctx() ctx: Context) {
    const imageId = parseId(id, 'Image');
    return mutate(ctx, 'image', async (tx) => {
      const current = await lockOwned(tx, ctx, images, imageId, 'Image');
      const changes = imageColumns(input, false);
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(images).set(changes).where(eq(images.id, imageId)).returning();
      return row;
    });
  }

  @Mutation(() => ImagePayload, { description: 'Deletes an image; in_use while a video slide shows it.' })
  deleteImage(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const imageId = parseId(id, 'Image');
    return mutate(ctx, 'image', (tx) => deleteOwned(tx, ctx, images, imageId, 'Image'));
  }
}
