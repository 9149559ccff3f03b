import 'reflect-metadata';
import { and, eq, inArray } from 'drizzle-orm';
import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Resolver } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { AppError, domainErrorType, type UserError } from '../../graphql/errors.js';
import { mutate } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { enqueueInvitations } from '../mail/mail.enqueue.js';
import { normalEmail } from '../users/user.email.js';
import { checkPasswordChange, checkPerson, personColumns } from '../users/user.rules.js';
import { users } from '../users/user.table.js';
import { PersonInput, StudentTypes } from '../users/user.type.js';
import { EnrollmentInput } from './enrollment.input.js';
import { createEnrollmentRows, MAX_BATCH } from './enrollment.write.js';
import { registrations } from './enrollment.table.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: "A person to onboard: createStudent's fields, and the school products to enroll them in." })
@RequiredFields('fullName', 'email')
export class StudentBatchInput extends PersonInput {
  @Field(() => [EnrollmentInput], {
    nullable: true,
    description: "Enrollments of this student (createEnrollment's fields); their registrationId is the new registration's, whatever is given.",
  })
  enrollments?: EnrollmentInput[] | null;
}

@ObjectType({ description: 'The students created together (each registered, and enrolled as asked), or why none was.' })
export class StudentsPayload {
  @Field(() => [StudentTypes.Type], { nullable: true }) students!: unknown[] | null;
  @Field(() => [domainErrorType('Enrollment')]) errors!: UserError[];
}


/**
 * Bulk onboarding: people, their registrations, invitations and enrollments in one transaction, with
 * the statements of createStudent / createRegistration / createEnrollments made set-based, so a
 * thousand people cost a handful of statements. Every person's problems are named by index; any
 * problem writes nothing.
 */
@Resolver()
export class StudentBatchResolver {
  @Mutation(() => StudentsPayload, {
    description: `Creates every student (with a registration, an invitation mail and the enrollments given) or none, in one transaction (at most ${MAX_BATCH}; more is a 413). Errors name the item: ["students", "<index>", "<field>"].`,
  })
  async createStudents(
    @Arg('inputs', () => [StudentBatchInput]) inputs: StudentBatchInput[],
    @Arg('dryRun', () => Boolean, { nullable: true, description: 'Check everything, write nothing: the payload shows the students as they would be (their ids were not kept).' })
    dryRun: boolean | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    if (inputs.length === 0) throw new AppError('bad_request', 'Give at least one student', ['students']);
    // Not one item's fault, so no index to name: the client splits the batch (as a body too large).
    if (inputs.length > MAX_BATCH) throw new AppError('payload_too_large', `A batch holds at most ${MAX_BATCH} students`, ['students']);
    try {
      return await mutate(ctx, 'students', (tx) => onboard(tx, ctx, schoolId, inputs, dryRun === true));
    } catch (error) {
      if (error instanceof DryRun) return { students: error.people, errors: [] };
      throw error;
    }
  }
}

/** Thrown at the end of a dry run, so its transaction rolls back with everything checked. */
class DryRun extends Error {
  constructor(readonly people: unknown[]) {
    super('dry run');
  }
}

async function onboard(tx: Queryable, ctx: Context, schoolId: number, inputs: StudentBatchInput[], dryRun: boolean) {
  const root = new Checks();
  const at = (i: number) => root.nested('students', i);
  const firstAt = new Map<string, number>();
  inputs.forEach((input, i) => {
    const checks = at(i);
    checkPerson(checks, input, true);
    checkPasswordChange(ctx, input.password, null, checks);
    const email = normalEmail(input.email);
    if (!email) return;
    const first = firstAt.get(email);
    if (first === undefined) firstAt.set(email, i);
    else checks.add('email', 'duplicate', `is also the e-mail of students[${first}]`);
  });
  const emails = [...firstAt.keys()];
  if (emails.length) {
    const taken = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.schoolId, schoolId), inArray(users.email, emails)));
    for (const { email } of taken) at(firstAt.get(email)!).add('email', 'taken');
  }
  root.throwIfAny();

  const columns = await Promise.all(inputs.map((input) => personColumns(input)));
  const people = (
    await tx
      .insert(users)
      .values(columns.map((values) => ({ ...values, fullName: values.fullName!, email: values.email!, schoolId, type: 'Student' as const })))
      .returning()
  ).sort((a, b) => a.id - b.id); // identity values follow the VALUES order
  const registered = (
    await tx
      .insert(registrations)
      .values(people.map((person) => ({ schoolId, studentId: person.id })))
      .returning({ id: registrations.id })
  ).sort((a, b) => a.id - b.id);
  // The invitations (welcome with a set-password link), as createStudent sends one.
  await enqueueInvitations(tx, schoolId, people.map((person) => person.id), ctx.now());

  const asked = inputs.flatMap((input, i) =>
    (input.enrollments ?? []).map((enrollment, j) => ({ input: { ...enrollment, registrationId: String(registered[i].id) }, i, j })),
  );
  if (asked.length)
    await createEnrollmentRows(tx, ctx, schoolId, asked.map((a) => a.input), (checks, k) => checks.nested('students', asked[k].i, 'enrollments', asked[k].j));
  if (dryRun) throw new DryRun(people);
  return people;
}
