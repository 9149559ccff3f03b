import 'reflect-metadata';
import { and, eq, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { users } from '../users/user.table.js';
import { StudentTypes } from '../users/user.type.js';
import { RegistrationInput, RegistrationsArgs } from './enrollment.input.js';
import { enrollmentsOfRegistration, registrationById, studentById, visibleRegistrations } from './enrollment.loaders.js';
import { registrations, type RegistrationRow } from './enrollment.table.js';
import { EnrollmentConnection, Registration, RegistrationConnection } from './enrollment.type.js';

export const RegistrationPayload = Payload(Registration, 'registration');
uniqueConstraintField('registrations_school_id_student_id_key', 'studentId');

@Resolver(() => Registration)
export class RegistrationResolver {
  @Query(() => Registration, { description: 'A registration; a student credential sees only its own.' })
  registration(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, registrationById, parseId(id, 'Registration'), 'Registration');
  }

  @Query(() => RegistrationConnection, { description: "The school's registrations, or one student's." })
  async registrations(@Args(() => RegistrationsArgs) args: RegistrationsArgs, @Ctx() ctx: Context) {
    let byStudent: SQL | undefined;
    if (args.studentId !== undefined && args.studentId !== null) {
      const student = await findOr404(ctx, studentById, parseId(args.studentId, 'Student'), 'Student');
      byStudent = eq(registrations.studentId, student.id);
    }
    return paginate(ctx, registrations, and(visibleRegistrations(ctx), byStudent), args);
  }

  @Mutation(() => RegistrationPayload, { description: 'Registers a student of the school (once: a second registration is taken).' })
  createRegistration(@Arg('input', () => RegistrationInput) input: RegistrationInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'registration', async (tx) => {
      const checks = new Checks().required('studentId', input.studentId);
      const studentId = await existingId(tx, checks, 'studentId', users, input.studentId, schoolId, eq(users.type, 'Student'));
      checks.throwIfAny();
      const [row] = await tx.insert(registrations).values({ schoolId, studentId: studentId! }).returning();
      return row;
    });
  }

  @FieldResolver(() => StudentTypes.Type)
  student(@Root() registration: RegistrationRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(studentById).load(registration.studentId);
  }

  @FieldResolver(() => EnrollmentConnection)
  enrollments(@Root() registration: RegistrationRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return enrollmentsOfRegistration(ctx, registration.id, args);
  }
}
