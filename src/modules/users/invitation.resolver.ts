import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { enqueueInvitations } from '../mail/mail.enqueue.js';
import { Invitation } from './invitation.type.js';
import { normalEmail } from './user.email.js';
import { checkPasswordChange, checkPerson, personColumns } from './user.rules.js';
import { users } from './user.table.js';
import { PersonInput } from './user.type.js';

const InvitationPayload = Payload(Invitation, 'invitation', 'InvitationPayload');

@Resolver()
export class InvitationResolver {
  @Mutation(() => InvitationPayload, {
    description:
      'Invites a person by e-mail to set their password: the invitation mail (a welcome with a single-use set-password link). ' +
      'An e-mail new to the school creates a student (fullName and email required, as createStudent); a person already of the school ' +
      'is invited again (a new link; the other fields are not applied: updateStudent changes them). REST: POST /invitations.',
  })
  invitePerson(@Arg('input', () => PersonInput) input: PersonInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'invitation', async (tx) => {
      const email = normalEmail(input.email);
      if (!email) {
        // No e-mail names no one already of the school: a new person, whose every missing field is named at once.
        const checks = new Checks();
        checkPerson(checks, input, true);
        checks.throwIfAny();
      }
      // Two invitations of one new e-mail at once: the second's insert meets the unique e-mail (taken).
      let [person] = await tx.select().from(users).where(and(eq(users.schoolId, schoolId), eq(users.email, email)));
      const created = !person;
      if (!person) {
        checkPasswordChange(ctx, input.password, null);
        const checks = new Checks();
        checkPerson(checks, input, true);
        checks.throwIfAny();
        const values = await personColumns(input);
        [person] = await tx
          .insert(users)
          .values({ ...values, fullName: values.fullName!, email, schoolId, type: 'Student' })
          .returning();
      }
      const [mail] = await enqueueInvitations(tx, schoolId, [person.id], ctx.now());
      return { id: person.id, schoolId, type: person.type, fullName: person.fullName, email: person.email, created, mailId: mail?.id ?? null };
    });
  }
}
