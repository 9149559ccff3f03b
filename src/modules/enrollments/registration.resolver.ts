import 'reflect-metadata';
import { and, eq, type SQL } from 'drizzle-orm';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { uniqueConstraintField } from '../../graphql/mutation.js';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import { existingId } from '../../graphql/references.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { users } from '../users/user.table.js';
import { StudentTypes } from '../users/user.type.js';
import { RegistrationInput, RegistrationsArgs } from './enrollment.input.js';
import { enrollmentsOfRegistration, registrationById, studentById, visibleRegistrations } from './enrollment.loaders.js';
import { registrations, type RegistrationRow } from './enrollment.table.js';
import { EnrollmentConnection, Registration } from './enrollment.type.js';

uniqueConstraintField('registrations_school_id_student_id_key', 'studentId');

@Resolver(() => Registration)
@RelationFields<RegistrationRow>({
  student: { type: () => StudentTypes.Type, loader: studentById, key: 'studentId' },
})
export class RegistrationResolver extends resourceResolver({
  type: Registration,
  byId: registrationById,
  columns: async (tx, input: RegistrationInput, { schoolId }) => {
    const checks = new Checks().required('studentId', input.studentId);
    const studentId = await existingId(tx, checks, 'studentId', users, input.studentId, schoolId, eq(users.type, 'Student'));
    checks.throwIfAny();
    return { studentId: studentId! };
  },
  listArgs: RegistrationsArgs,
  listWhere: async (ctx, args: RegistrationsArgs) => {
    let byStudent: SQL | undefined;
    if (args.studentId !== undefined && args.studentId !== null) {
      const student = await findOr404(ctx, studentById, parseId(args.studentId, 'Student'), 'Student');
      byStudent = eq(registrations.studentId, student.id);
    }
    return and(visibleRegistrations(ctx), byStudent);
  },
  descriptions: {
    show: 'A registration; a student credential sees only its own.',
    list: "The school's registrations, or one student's.",
    create: 'Registers a student of the school (once: a second registration is taken).',
  },
  omit: ['update', 'delete'],
}) {
  @FieldResolver(() => EnrollmentConnection)
  enrollments(@Root() registration: RegistrationRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return enrollmentsOfRegistration(ctx, registration.id, args);
  }
}
