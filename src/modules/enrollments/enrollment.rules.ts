import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { given, idOrNull } from '../../graphql/ids.js';
import { Checks } from '../../graphql/validation.js';
import { courseClasses } from '../course-classes/course-class.table.js';
import { schoolProductCourses } from '../school-products/school-product-content.table.js';
import { productAccess as accessOf } from '../school-products/school-product.access.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import type { EnrollmentInput } from './enrollment.input.js';
import { enrollmentCourseClasses, enrollments, type EnrollmentRow, registrations } from './enrollment.table.js';

type EnrollmentValues = Partial<typeof enrollments.$inferInsert>;

/** One enrollment to check: its input, the row it updates (none on create), and where its errors go. */
export interface Candidate {
  input: EnrollmentInput;
  current?: EnrollmentRow;
  checks: Checks;
}

/** What a checked enrollment writes. */
export interface CheckedEnrollment {
  /** Columns to write (on create, every required column is present). */
  values: EnrollmentValues;
  /** The course classes to link, or null when the input did not name them (keep the links). */
  courseClassIds: number[] | null;
  /** The status becomes active with this write. */
  activated: boolean;
}

const LIMITED: readonly string[] = ['time', 'attempts'];

const uniq = <T>(items: readonly T[]) => [...new Set(items)];

/** The id an input names, or null when it names none; an id that is not an id is reported as not_found. */
function reference(checks: Checks, field: string, value: string | null | undefined, what: string): number | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null;
  const id = idOrNull(value);
  if (id === null) checks.add(field, 'not_found', `must be ${what} of this school`);
  return id;
}

/**
 * Checks enrollments as they will be after the change (`current` + `input`), all at once: the
 * references are resolved with one statement per kind however many enrollments there are (the
 * batch). Every problem lands in the candidate's own `checks`; the caller throws them together.
 */
export async function checkEnrollments(tx: Queryable, ctx: Context, schoolId: number, candidates: Candidate[]): Promise<CheckedEnrollment[]> {
  const isApp = ctx.credential?.role === 'app';
  const plans = candidates.map(({ input, current, checks }) => {
    const creating = !current;
    if (creating) checks.required('registrationId', input.registrationId).required('schoolProductId', input.schoolProductId).required('maxAttendanceType', input.maxAttendanceType);
    else
      checks
        .notCleared('registrationId', input.registrationId)
        .notCleared('schoolProductId', input.schoolProductId)
        .notCleared('maxAttendanceType', input.maxAttendanceType)
        .notCleared('status', input.status);
    const unlimited = input.unlimited === undefined ? (current?.unlimited ?? false) : !!input.unlimited;
    const maxAttendanceType = input.maxAttendanceType ?? current?.maxAttendanceType;
    const maxAttendanceLength = input.maxAttendanceLength === undefined ? current?.maxAttendanceLength : input.maxAttendanceLength;
    const availableUntil = input.availableUntil === undefined ? current?.availableUntil : input.availableUntil;
    // A new enrollment given neither available_until nor unlimited takes its product's access period
    // (school-products/school-product.access.ts: its duration or date, else unlimited).
    const productAccess = creating && (availableUntil === undefined || availableUntil === null) && (input.unlimited === undefined || input.unlimited === null) && !!input.schoolProductId;
    checks
      .requiredWhen(!!maxAttendanceType && LIMITED.includes(maxAttendanceType), 'maxAttendanceLength', maxAttendanceLength, `when max_attendance_type is ${maxAttendanceType}`)
      .requiredWhen(!unlimited && !productAccess, 'availableUntil', availableUntil, 'unless unlimited');
    if (typeof input.maxAttendanceLength === 'number' && input.maxAttendanceLength <= 0)
      checks.add('maxAttendanceLength', 'greater_than', undefined, 0);
    // A fetched enrollment sent back unchanged carries its time_spent: only a change needs an app credential.
    const unchanged = !!current && input.timeSpent === current.timeSpent;
    if (input.timeSpent !== undefined && !unchanged) {
      if (!isApp) checks.add('timeSpent', 'forbidden', 'can be written only with an app credential');
      else checks.notCleared('timeSpent', input.timeSpent).range('timeSpent', input.timeSpent, 0);
    }
    const code = input.code === undefined ? undefined : input.code === null || input.code.trim() === '' ? null : input.code.trim();
    const registrationId = reference(checks, 'registrationId', input.registrationId, 'a registration');
    const productId = reference(checks, 'schoolProductId', input.schoolProductId, 'a school product');
    const classIds = input.courseClassIds === undefined || input.courseClassIds === null ? null : input.courseClassIds.map(idOrNull);
    if (classIds?.some((id) => id === null)) checks.add('courseClassIds', 'not_found', 'names something that is not a course class id');
    return { code, registrationId, productId, productAccess, classIds: classIds?.filter((id): id is number => id !== null) ?? null };
  });

  // The references of every candidate, one statement per kind.
  const registrationIds = uniq(plans.flatMap((p) => (p.registrationId ? [p.registrationId] : [])));
  const productIds = uniq(plans.flatMap((p) => (p.productId ? [p.productId] : [])));
  const codes = uniq(plans.flatMap((p) => (p.code ? [p.code] : [])));
  const studentOf = new Map<number, number>();
  if (registrationIds.length) {
    const rows = await tx
      .select({ id: registrations.id, studentId: registrations.studentId })
      .from(registrations)
      .where(and(inArray(registrations.id, registrationIds), eq(registrations.schoolId, schoolId)));
    for (const r of rows) studentOf.set(r.id, r.studentId);
  }
  const products = new Map<number, typeof schoolProducts.$inferSelect>();
  if (productIds.length) {
    const rows = await tx
      .select()
      .from(schoolProducts)
      .where(and(inArray(schoolProducts.id, productIds), eq(schoolProducts.schoolId, schoolId)));
    for (const r of rows) products.set(r.id, r);
  }
  const takenCodes = new Map<string, number[]>();
  if (codes.length) {
    const rows = await tx
      .select({ id: enrollments.id, code: enrollments.code })
      .from(enrollments)
      .where(and(eq(enrollments.schoolId, schoolId), inArray(enrollments.code, codes)));
    for (const r of rows) takenCodes.set(r.code!, [...(takenCodes.get(r.code!) ?? []), r.id]);
  }

  // Course classes must be classes of the courses of the product the enrollment will have. When an
  // update moves the enrollment to another product and names no classes, its current classes must fit.
  const effectiveProduct = (i: number) => plans[i].productId ?? candidates[i].current?.schoolProductId ?? null;
  const movedWithClasses = candidates
    .map((c, i) => (c.current && plans[i].classIds === null && plans[i].productId && plans[i].productId !== c.current.schoolProductId ? c.current.id : null))
    .filter((id): id is number => id !== null);
  const currentClasses = new Map<number, number[]>();
  if (movedWithClasses.length) {
    const rows = await tx
      .select({ enrollmentId: enrollmentCourseClasses.enrollmentId, courseClassId: enrollmentCourseClasses.courseClassId })
      .from(enrollmentCourseClasses)
      .where(inArray(enrollmentCourseClasses.enrollmentId, movedWithClasses));
    for (const r of rows) currentClasses.set(r.enrollmentId, [...(currentClasses.get(r.enrollmentId) ?? []), r.courseClassId]);
  }
  const classesToCheck = plans.map((p, i) => p.classIds ?? (candidates[i].current ? currentClasses.get(candidates[i].current!.id) ?? [] : []));
  const classIds = uniq(classesToCheck.flat());
  const courseOfClass = new Map<number, number>();
  const coursesOfProduct = new Map<number, Set<number>>();
  if (classIds.length) {
    const rows = await tx
      .select({ id: courseClasses.id, courseId: courseClasses.courseId })
      .from(courseClasses)
      .where(and(inArray(courseClasses.id, classIds), eq(courseClasses.schoolId, schoolId)));
    for (const r of rows) courseOfClass.set(r.id, r.courseId);
    const productsWithClasses = uniq(classesToCheck.flatMap((ids, i) => (ids.length && effectiveProduct(i) ? [effectiveProduct(i)!] : [])));
    if (productsWithClasses.length) {
      const links = await tx
        .select({ productId: schoolProductCourses.schoolProductId, courseId: schoolProductCourses.courseId })
        .from(schoolProductCourses)
        .where(inArray(schoolProductCourses.schoolProductId, productsWithClasses));
      for (const l of links) coursesOfProduct.set(l.productId, (coursesOfProduct.get(l.productId) ?? new Set()).add(l.courseId));
    }
  }

  const now = ctx.now();
  const codesSeen = new Set<string>();
  return candidates.map(({ input, current, checks }, i) => {
    const plan = plans[i];
    const values: EnrollmentValues = {};
    if (plan.registrationId) {
      const studentId = studentOf.get(plan.registrationId);
      if (studentId === undefined) checks.add('registrationId', 'not_found', 'must exist in this school');
      else Object.assign(values, { registrationId: plan.registrationId, studentId });
    }
    if (plan.productId) {
      if (!products.has(plan.productId)) checks.add('schoolProductId', 'not_found', 'must exist in this school');
      else values.schoolProductId = plan.productId;
    }
    const toCheck = classesToCheck[i];
    const productId = effectiveProduct(i);
    const missing = toCheck.filter((id) => !courseOfClass.has(id));
    if (missing.length) checks.add('courseClassIds', 'not_found', `has no course class of this school with id ${missing.join(', ')}`);
    // A product that does not exist was reported above; its classes cannot be judged.
    if (productId && (products.has(productId) || productId === current?.schoolProductId)) {
      const courses = coursesOfProduct.get(productId) ?? new Set<number>();
      const foreign = toCheck.filter((id) => courseOfClass.has(id) && !courses.has(courseOfClass.get(id)!));
      if (foreign.length)
        checks.add('courseClassIds', 'invalid', `${foreign.join(', ')} ${foreign.length === 1 ? 'is not a class' : 'are not classes'} of the school product's courses`);
    }
    if (plan.code) {
      const holders = (takenCodes.get(plan.code) ?? []).filter((id) => id !== current?.id);
      if (holders.length || codesSeen.has(plan.code)) checks.add('code', 'taken');
      codesSeen.add(plan.code);
    }
    if (plan.code !== undefined) values.code = plan.code;

    const { registrationId: _r, schoolProductId: _p, courseClassIds: _c, code: _code, createdAt, unlimited, ...plain } = given(input);
    // A null status on create means the default (on update, clearing it was reported above).
    if (plain.status === null) delete plain.status;
    Object.assign(values, plain);
    if (unlimited !== undefined) values.unlimited = !!unlimited;
    const product = plan.productAccess && plan.productId ? products.get(plan.productId) : undefined;
    if (product) {
      const access = accessOf(product, input.activatedAt ?? now);
      Object.assign(values, { unlimited: access.unlimited, availableUntil: access.availableUntil });
    }
    if (createdAt) values.createdAt = createdAt;
    const status = input.status ?? current?.status ?? 'pending';
    const activated = status === 'active' && current?.status !== 'active';
    if (activated && !input.activatedAt) values.activatedAt = now;
    return { values, courseClassIds: plan.classIds ? uniq(plan.classIds) : null, activated };
  });
}
