import 'reflect-metadata';
import { and, eq, inArray } from 'drizzle-orm';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { askedNodeColumns } from '../../graphql/asked-columns.js';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import { type LinkParent, replaceLinks } from '../../db/links.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { rowMatch } from '../../graphql/filters.js';
import { given, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { byIdWithLinks } from '../../graphql/linked-ids.js';
import { mutate } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId, existingIds } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { emitRowEvent } from '../events/events.js';
import { relationsResolver } from '../../graphql/relations.js';
import { categoryById } from '../library/library.loaders.js';
import { categories, libraryResources } from '../library/library.table.js';
import { Category } from '../library/category.type.js';
import { mediaById } from '../media/media.loaders.js';
import { media } from '../media/media.table.js';
import { Media } from '../media/media.type.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { users } from '../users/user.table.js';
import { courses } from '../courses/course.table.js';
import { paths } from '../paths/path.table.js';
import { schoolProductCourses, schoolProductPaths } from './school-product-content.table.js';
import { SchoolProductInput, SchoolProductsArgs } from './school-product.input.js';
import {
  categoryIdsOfProduct,
  classTeacherIdsOfProduct,
  courseIdsOfProduct,
  galleryMediaIdsOfProduct,
  pathIdsOfProduct,
  productsOfSchool,
  schoolProductById,
  topicsOfProduct,
} from './school-product.loaders.js';
import {
  schoolProductCategories,
  schoolProductClassTeachers,
  schoolProductGalleryMedia,
  schoolProducts,
} from './school-product.table.js';
import { SchoolProduct, SchoolProductConnection, SchoolProductPayload, SchoolProductTopic } from './school-product.type.js';

type ProductRow = typeof schoolProducts.$inferSelect;

/**
 * Checks a product as it will be after the change (`current` + `input`), so conditional rules hold
 * on update too, and resolves its references within the school.
 */
async function checkProduct(tx: Queryable, schoolId: number, input: SchoolProductInput, current?: ProductRow) {
  const checks = new Checks();
  if (current) checks.notCleared('title', input.title);
  else checks.required('title', input.title);
  checks.notCleared('certificateRule', input.certificateRule);
  const after = { ...current, ...given(input) };
  checks
    .requiredWhen(after.availableTimeType === 'time', 'availableTimeLength', after.availableTimeLength, 'when available_time_type is time')
    .requiredWhen(after.availableTimeType === 'time', 'availableTimeUnit', after.availableTimeUnit, 'when available_time_type is time')
    .requiredWhen(after.availableTimeType === 'date', 'expireDate', after.expireDate, 'when available_time_type is date')
    .requiredWhen(!!after.published, 'libraryResourceId', after.libraryResourceId, 'when the product is published')
    .requiredWhen(!!after.maxAttendanceType, 'maxAttendanceLength', after.maxAttendanceLength, `when max_attendance_type is ${after.maxAttendanceType}`)
    .range('certificationMinProgress', input.certificationMinProgress, 0, 100)
    .range('availableTimeLength', input.availableTimeLength, 1)
    .range('maxAttendanceLength', input.maxAttendanceLength, 1);
  const libraryResourceId = await existingId(tx, checks, 'libraryResourceId', libraryResources, input.libraryResourceId, schoolId);
  const categoryIds = await existingIds(tx, checks, 'categoryIds', categories, input.categoryIds, schoolId);
  const galleryMediaIds = await existingIds(tx, checks, 'galleryMediaIds', media, input.galleryMediaIds, schoolId);
  const classTeacherIds = await existingIds(
    tx, checks, 'classTeacherIds', users, input.classTeacherIds, schoolId, inArray(users.type, ['Collaborator', 'Admin']),
  );
  const courseIds = await existingIds(tx, checks, 'courseIds', courses, input.courseIds, schoolId);
  const pathIds = await existingIds(tx, checks, 'pathIds', paths, input.pathIds, schoolId);
  checks.throwIfAny();
  const { libraryResourceId: _l, categoryIds: _c, galleryMediaIds: _g, classTeacherIds: _t, courseIds: _cs, pathIds: _ps, ...columns } = given(input);
  const values = { ...columns } as Partial<typeof schoolProducts.$inferInsert>;
  if (input.libraryResourceId !== undefined) values.libraryResourceId = libraryResourceId;
  if (typeof values.title === 'string') values.title = values.title.trim();
  return { values, categoryIds, galleryMediaIds, classTeacherIds, courseIds, pathIds };
}

async function writeLinks(tx: Queryable, product: LinkParent, input: SchoolProductInput, ids: Awaited<ReturnType<typeof checkProduct>>) {
  const t = schoolProductCategories;
  if (input.categoryIds) await replaceLinks(tx, t, t.schoolProductId, product, t.categoryId, ids.categoryIds);
  const g = schoolProductGalleryMedia;
  if (input.galleryMediaIds) await replaceLinks(tx, g, g.schoolProductId, product, g.mediaId, ids.galleryMediaIds, g.position);
  const c = schoolProductClassTeachers;
  if (input.classTeacherIds) await replaceLinks(tx, c, c.schoolProductId, product, c.userId, ids.classTeacherIds);
  const pc = schoolProductCourses;
  if (input.courseIds) await replaceLinks(tx, pc, pc.schoolProductId, product, pc.courseId, ids.courseIds, pc.position);
  const pp = schoolProductPaths;
  if (input.pathIds) await replaceLinks(tx, pp, pp.schoolProductId, product, pp.pathId, ids.pathIds, pp.position);
}

@Resolver(() => SchoolProduct)
export class SchoolProductResolver {
  @Query(() => SchoolProduct)
  schoolProduct(@Arg('id', () => ID) id: string, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    // Its linked ids asked beside it (categoryIds, courseIds, ...) are read in the same statement.
    return findOr404(ctx, byIdWithLinks(info, schoolProductById), parseId(id, 'SchoolProduct'), 'SchoolProduct');
  }

  @Query(() => SchoolProductConnection)
  async schoolProducts(@Args(() => SchoolProductsArgs) args: SchoolProductsArgs, @Ctx() ctx: Context) {
    const published = args.published === undefined || args.published === null ? undefined : eq(schoolProducts.published, args.published);
    const ofSchool = await rowMatch(ctx, schoolProducts.schoolId, schoolById, args.schoolId, 'School');
    return paginate(ctx, schoolProducts, and(inSchool(ctx, schoolProducts.schoolId), published, ofSchool), args);
  }

  @Mutation(() => SchoolProductPayload)
  createSchoolProduct(
    @Arg('input', () => SchoolProductInput) input: SchoolProductInput,
    @Ctx() ctx: Context,
    @Arg('schoolId', () => ID, { nullable: true, description: "The school's id as a path names it (`/schools/:id/products`): the school written to, else 404." })
    pathSchoolId?: string | null,
  ) {
    const schoolId = writeSchool(ctx);
    if (pathSchoolId !== undefined && pathSchoolId !== null && parseId(pathSchoolId, 'School') !== schoolId) throw notFound('School');
    return mutate(ctx, 'schoolProduct', async (tx) => {
      const checked = await checkProduct(tx, schoolId, input);
      const [row] = await tx
        .insert(schoolProducts)
        .values({ ...checked.values, title: checked.values.title!, schoolId })
        .returning();
      await writeLinks(tx, row, input, checked);
      await emitRowEvent(tx, 'school_product.created', row, { title: row.title, published: row.published });
      return row;
    });
  }

  @Mutation(() => SchoolProductPayload)
  updateSchoolProduct(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SchoolProductInput) input: SchoolProductInput,
    @Ctx() ctx: Context,
  ) {
    // A platform credential names the school it writes in (X-School-Id), as on create.
    const productId = parseId(id, 'SchoolProduct');
    return mutate(ctx, 'schoolProduct', async (tx) => {
      const current = await lockOwned(tx, ctx, schoolProducts, productId, 'SchoolProduct');
      const checked = await checkProduct(tx, current.schoolId, input, current);
      await writeLinks(tx, current, input, checked);
      const changed = Object.keys(given(input));
      const row =
        Object.keys(checked.values).length === 0
          ? current
          : (await tx.update(schoolProducts).set(checked.values).where(eq(schoolProducts.id, productId)).returning())[0];
      if (changed.length)
        await emitRowEvent(tx, 'school_product.updated', row, { title: row.title, published: row.published, changed });
      return row;
    });
  }

  @Mutation(() => SchoolProductPayload)
  deleteSchoolProduct(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const productId = parseId(id, 'SchoolProduct');
    return mutate(ctx, 'schoolProduct', (tx) => deleteOwned(tx, ctx, schoolProducts, productId, 'SchoolProduct'));
  }
}

/** The product's related rows and link ids, each read through its loader. */
export const SchoolProductRelatedResolver = relationsResolver<ProductRow>(SchoolProduct, {
  school: { type: () => School, loader: schoolById, key: 'schoolId' },
  topics: { type: () => [SchoolProductTopic], loader: topicsOfProduct, key: 'id' },
  categoryIds: { type: () => [ID], loader: categoryIdsOfProduct, key: 'id' },
  categories: { type: () => [Category], loader: categoryById, key: 'id', through: categoryIdsOfProduct },
  galleryMediaIds: { type: () => [ID], loader: galleryMediaIdsOfProduct, key: 'id', description: 'Gallery media ids, in gallery order.' },
  galleryMedia: { type: () => [Media], loader: mediaById, key: 'id', through: galleryMediaIdsOfProduct },
  classTeacherIds: { type: () => [ID], loader: classTeacherIdsOfProduct, key: 'id' },
  courseIds: { type: () => [ID], loader: courseIdsOfProduct, key: 'id', description: "The product's own course ids, in its order (`courses` adds those of its paths)." },
  pathIds: { type: () => [ID], loader: pathIdsOfProduct, key: 'id', description: "The product's learning path ids, in its order." },
});

/**
 * The columns the computed fields of a product read, that a list of products reads only the asked
 * columns with (askedNodeColumns): each of these keys its rows by the product's id or school.
 */
const productNeeds = {
  school: ['schoolId'],
  topics: ['id'],
  categoryIds: ['id'],
  categories: ['id'],
  galleryMediaIds: ['id'],
  galleryMedia: ['id'],
  classTeacherIds: ['id'],
  courseIds: ['id'],
  pathIds: ['id'],
  courses: ['id'],
  paths: ['id'],
  enrollments: ['id'],
} as const;

@Resolver(() => School)
export class SchoolProductsOfSchoolResolver {
  @FieldResolver(() => SchoolProductConnection)
  schoolProducts(@Root() school: { id: number }, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return productsOfSchool(ctx, school.id, args, askedNodeColumns(info, schoolProducts, ['id', 'schoolId'], productNeeds));
  }
}
