import 'reflect-metadata';
import { and, eq, type SQL } from 'drizzle-orm';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { oneSchool, ownStudentId, writeSchool } from '../../auth/tenancy.js';
import { replaceLinks } from '../../db/links.js';
import type { Context } from '../../graphql/context.js';
import { AppError, notFound } from '../../graphql/errors.js';
import { given, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { asksFor, paginate, schoolPage } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { CourseClass } from '../course-classes/course-class.type.js';
import { isActiveEnrollment } from '../../content/scope.js';
import { relationsResolver } from '../../graphql/relations.js';
import { askedNodeColumns, nodeRelationColumns } from '../../graphql/asked-columns.js';
import { users } from '../users/user.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { emitEvents } from '../events/events.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { StudentTypes } from '../users/user.type.js';
import { EnrollmentInput, EnrollmentsArgs } from './enrollment.input.js';
import {
  courseClassById,
  courseClassIdsOfEnrollment,
  enrollmentById,
  registrationById,
  studentById,
  visibleEnrollments,
} from './enrollment.loaders.js';
import { enrollmentsWhere } from './enrollment.filters.js';
import { checkEnrollments } from './enrollment.rules.js';
import { createEnrollmentRows, eventPayload, MAX_BATCH } from './enrollment.write.js';
import { effectiveStatus } from './enrollment.status.js';
import { enrollmentCourseClasses, enrollments, type EnrollmentRow } from './enrollment.table.js';
import { Enrollment, EnrollmentConnection, EnrollmentsPayload, EnrollmentStatusCheck, EnrollmentStatusEnum, Registration } from './enrollment.type.js';

export const EnrollmentPayload = Payload(Enrollment, 'enrollment');
uniqueConstraintField('enrollments_school_id_code_key', 'code');

/**
 * The school's enrollments a page at a time, in statements built once (an unfiltered list of staff),
 * with the student and the product their selections ask for when those are plain columns: read in the
 * page's statement and primed into the loaders their fields read through (narrowed to those columns).
 */
const enrollmentPage = schoolPage('enrollments.page', enrollments, {
  student: { table: users, key: enrollments.studentId, loader: studentById, where: eq(users.type, 'Student') },
  schoolProduct: { table: schoolProducts, key: enrollments.schoolProductId, loader: schoolProductById },
});

/**
 * The columns the computed fields of an enrollment read: a list reads only the columns its nodes ask
 * for (plain fields and these), with the id and school (the tenancy check), or every column.
 */
const enrollmentNeeds = {
  status: ['status', 'unlimited', 'availableUntil'],
  student: ['studentId'],
  registration: ['registrationId'],
  schoolProduct: ['schoolProductId'],
  courseClassIds: ['id'],
  courseClasses: ['id'],
} as const;

/** joinedOf's answers by the field's one node (nodeRelationColumns gives the same lists for it every time). */
const joinedByNode = new WeakMap<FieldNode, Record<string, readonly string[]> | null>();

/** The student and product the page's statement reads (enrollmentPage), with the columns their selections ask for. */
function joinedOf(info: GraphQLResolveInfo): Record<string, readonly string[]> | undefined {
  const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
  const known = node && joinedByNode.get(node);
  if (known !== undefined) return known ?? undefined;
  const student = nodeRelationColumns(info, 'student', users);
  const schoolProduct = nodeRelationColumns(info, 'schoolProduct', schoolProducts);
  const joined = !student && !schoolProduct ? null : { ...(student ? { student } : {}), ...(schoolProduct ? { schoolProduct } : {}) };
  if (node) joinedByNode.set(node, joined);
  return joined ?? undefined;
}

/** Exactly one of id and code names an enrollment. */
function oneOf(id: string | null | undefined, code: string | null | undefined): { id: number } | { code: string } {
  const hasCode = typeof code === 'string' && code.trim() !== '';
  if ((id !== null && id !== undefined) === hasCode) throw new AppError('bad_request', 'Name the enrollment by id or by code (one of them)', hasCode ? ['id'] : ['code']);
  return hasCode ? { code: code!.trim() } : { id: parseId(id!, 'Enrollment') };
}

/** Code look-ups need one school: codes are unique within a school only. */
function byCode(ctx: Context, code: string): SQL {
  if (oneSchool(ctx) === null)
    throw new AppError('bad_request', 'Codes are unique within a school: name the school with the X-School-Id header');
  return eq(enrollments.code, code);
}

@Resolver(() => Enrollment)
export class EnrollmentResolver {
  @Query(() => Enrollment, { description: 'An enrollment by id or by code (give one). A student credential sees only its own.' })
  async enrollment(
    @Arg('id', () => ID, { nullable: true }) id: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const key = oneOf(id, code);
    if ('id' in key) return findOr404(ctx, enrollmentById, key.id, 'Enrollment');
    const [row] = await ctx.db.select().from(enrollments).where(and(byCode(ctx, key.code), visibleEnrollments(ctx)));
    if (!row) throw notFound('Enrollment');
    return row;
  }

  @Query(() => EnrollmentConnection, {
    description: 'Enrollments of the school, narrowed by student, course class, school product and status. A student credential sees only its own.',
  })
  async enrollments(@Args(() => EnrollmentsArgs) args: EnrollmentsArgs, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    // Without a filter, staff read the school's enrollments: the page's statements are built once.
    const unfiltered =
      (args.studentId === undefined || args.studentId === null) &&
      (args.courseClassId === undefined || args.courseClassId === null) &&
      (args.schoolProductId === undefined || args.schoolProductId === null) &&
      (args.status === undefined || args.status === null) &&
      ownStudentId(ctx) === null;
    const columns = askedNodeColumns(info, enrollments, ['id', 'schoolId'], enrollmentNeeds);
    const count = asksFor(info, 'totalCount');
    if (!unfiltered) {
      const { where, parent } = await enrollmentsWhere(ctx, args);
      return paginate(ctx, enrollments, where, args, { count, parent, columns });
    }
    // enrollmentsWhere's condition without a filter: the caller's rows (only a count past the page reads it).
    return paginate(ctx, enrollments, () => visibleEnrollments(ctx), args, { count, columns, schoolRows: enrollmentPage, joined: joinedOf(info) });
  }

  @Query(() => EnrollmentStatusCheck, {
    description: "Whether the student's enrollment is active (status active and access not ended); not found when it is not that student's.",
  })
  async enrollmentStatus(@Arg('studentId', () => ID) studentId: string, @Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const student = await findOr404(ctx, studentById, parseId(studentId, 'Student'), 'Student');
    const row = await findOr404(ctx, enrollmentById, parseId(id, 'Enrollment'), 'Enrollment');
    if (row.studentId !== student.id) throw notFound('Enrollment');
    const active = isActiveEnrollment(row, ctx.now());
    return { id: row.id, studentId: row.studentId, status: effectiveStatus(row, ctx.now()), active, unlimited: row.unlimited, availableUntil: row.availableUntil };
  }

  @Mutation(() => EnrollmentPayload, { description: 'Enrolls the student of a registration in a school product.' })
  createEnrollment(@Arg('input', () => EnrollmentInput) input: EnrollmentInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'enrollment', async (tx) => (await createEnrollmentRows(tx, ctx, schoolId, [input], (root) => root))[0]);
  }

  @Mutation(() => EnrollmentsPayload, {
    description: `Creates every enrollment or none, in one transaction (at most ${MAX_BATCH}). Errors name the item: ["enrollments", "<index>", "<field>"].`,
  })
  async createEnrollments(@Arg('inputs', () => [EnrollmentInput]) inputs: EnrollmentInput[], @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    if (inputs.length === 0) throw new AppError('bad_request', 'Give at least one enrollment', ['enrollments']);
    if (inputs.length > MAX_BATCH) throw new AppError('bad_request', `A batch holds at most ${MAX_BATCH} enrollments`, ['enrollments']);
    return mutate(ctx, 'enrollments', (tx) => createEnrollmentRows(tx, ctx, schoolId, inputs, (root, i) => root.nested('enrollments', i)));
  }

  @Mutation(() => EnrollmentPayload, { description: 'Updates an enrollment named by id or by code (give one); the result must be valid as a whole.' })
  updateEnrollment(
    @Arg('id', () => ID, { nullable: true }) id: string | null | undefined,
    @Arg('code', () => String, { nullable: true }) code: string | null | undefined,
    @Arg('input', () => EnrollmentInput) input: EnrollmentInput,
    @Ctx() ctx: Context,
  ) {
    writeSchool(ctx);
    const key = oneOf(id, code);
    return mutate(ctx, 'enrollment', async (tx) => {
      const which = 'id' in key ? eq(enrollments.id, key.id) : byCode(ctx, key.code);
      const [current] = await tx.select().from(enrollments).where(and(which, visibleEnrollments(ctx))).for('update');
      if (!current) throw notFound('Enrollment');
      const checks = new Checks();
      const [checked] = await checkEnrollments(tx, ctx, current.schoolId, [{ input, current, checks }]);
      checks.throwIfAny();
      if (checked.courseClassIds) {
        const t = enrollmentCourseClasses;
        await replaceLinks(tx, t, t.enrollmentId, current, t.courseClassId, checked.courseClassIds);
      }
      if (Object.keys(checked.values).length === 0 && checked.courseClassIds === null) return current;
      const [row] = await tx
        .update(enrollments)
        .set({ ...checked.values, updatedAt: new Date() })
        .where(eq(enrollments.id, current.id))
        .returning();
      // A write given created_at is an import: its callbacks (events) are skipped.
      if (input.createdAt) return row;
      const changed = Object.keys(given(input));
      const base = { schoolId: row.schoolId, subjectType: 'Enrollment', subjectId: row.id } as const;
      await emitEvents(tx, [
        { ...base, name: 'enrollment.updated', payload: { ...eventPayload(row), changed } },
        ...(checked.activated ? [{ ...base, name: 'enrollment.activated' as const, payload: eventPayload(row) }] : []),
        // A status set by hand: canceled, or expired (the sweep records only enrollments that run out while active or pending).
        ...(row.status !== current.status && row.status === 'canceled' ? [{ ...base, name: 'enrollment.canceled' as const, payload: eventPayload(row) }] : []),
        ...(row.status !== current.status && row.status === 'expired'
          ? [{ ...base, name: 'enrollment.expired' as const, payload: { availableUntil: row.availableUntil?.toISOString() ?? null } }]
          : []),
      ]);
      return row;
    });
  }

  @FieldResolver(() => EnrollmentStatusEnum, { description: 'The stored status, except that an active or pending enrollment past availableUntil (not unlimited) reads as expired.' })
  status(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    // Only an enrollment that can run out reads the clock (effectiveStatus answers the stored status for the others).
    if (enrollment.unlimited || enrollment.availableUntil === null) return enrollment.status;
    return effectiveStatus(enrollment, ctx.now());
  }
}

/** The enrollment's student, registration, product and course classes, each read through its loader. */
export const EnrollmentRelatedResolver = relationsResolver<EnrollmentRow>(Enrollment, {
  student: { type: () => StudentTypes.Type, loader: studentById, key: 'studentId' },
  registration: { type: () => Registration, loader: registrationById, key: 'registrationId' },
  schoolProduct: { type: () => SchoolProduct, loader: schoolProductById, key: 'schoolProductId' },
  courseClassIds: { type: () => [ID], loader: courseClassIdsOfEnrollment, key: 'id', description: 'The course classes the enrollment is in.' },
  courseClasses: { type: () => [CourseClass], loader: courseClassById, key: 'id', through: courseClassIdsOfEnrollment },
});
