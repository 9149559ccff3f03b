import 'reflect-metadata';
import { and, eq, type SQL } from 'drizzle-orm';
import { Arg, Args, ArgsType, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLEmailAddress } from 'graphql-scalars';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import { checkPasswordChange, checkPerson, ownUserFor, personColumns } from './user.rules.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { users } from './user.table.js';
import { AdminTypes, CollaboratorTypes, PersonInput, StudentTypes, type UserKind } from './user.type.js';
import { enqueueInvitations } from '../mail/mail.enqueue.js';
import { personalDataErasures } from '../privacy/privacy.table.js';

uniqueConstraintField('users_school_id_email_key', 'email');

@ArgsType()
export class PeopleArgs extends ConnectionArgs {
  @Field(() => GraphQLEmailAddress, { nullable: true }) email?: string | null;
}

async function personValues(input: PersonInput, creating: boolean) {
  const checks = new Checks();
  checkPerson(checks, input, creating);
  checks.throwIfAny();
  return personColumns(input);
}

/**
 * Queries and mutations for one kind of person (`student`, `students`, `createStudent`, ...):
 * the three kinds differ only in names and in who may manage them.
 */
function peopleResolver(kind: UserKind, types: typeof StudentTypes) {
  const one = kind.charAt(0).toLowerCase() + kind.slice(1);
  const PersonPayload = Payload(types.Type, one, `${kind}Payload`);
  const ofKind = (ctx: Context, id?: number): SQL | undefined =>
    and(eq(users.type, kind), inSchool(ctx, users.schoolId), id === undefined ? undefined : eq(users.id, id));
  /** A role with `own` access to the operation (user.access.ts) reaches only its own user. */
  const ownOnly = (ctx: Context, operation: string): SQL | undefined => {
    const own = ownUserFor(ctx, operation);
    return own === null ? undefined : eq(users.id, own);
  };

  @Resolver(() => types.Type)
  class PeopleResolver {
    @Query(() => types.Type, { name: one })
    async person(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
      const [row] = await ctx.db.select().from(users).where(and(ofKind(ctx, parseId(id, kind)), ownOnly(ctx, `Query.${one}`)));
      if (!row) throw notFound(kind);
      return row;
    }

    @Query(() => types.ConnectionType, { name: `${one}s` })
    people(@Args(() => PeopleArgs) args: PeopleArgs, @Ctx() ctx: Context) {
      return paginate(ctx, users, and(ofKind(ctx), args.email ? eq(users.email, args.email.toLowerCase()) : undefined), args);
    }

    @Mutation(() => PersonPayload, { name: `create${kind}` })
    create(@Arg('input', () => PersonInput) input: PersonInput, @Ctx() ctx: Context) {
      const schoolId = writeSchool(ctx);
      return mutate(ctx, one, async (tx) => {
        checkPasswordChange(ctx, input.password, null);
        const values = await personValues(input, true);
        const [row] = await tx
          .insert(users)
          .values({ ...values, fullName: values.fullName!, email: values.email!, schoolId, type: kind })
          .returning();
        // The invitation: a welcome with a set-password link (an essential mail, sent whatever the settings).
        await enqueueInvitations(tx, schoolId, [row.id], ctx.now());
        return row;
      });
    }

    @Mutation(() => PersonPayload, { name: `update${kind}` })
    update(@Arg('id', () => ID) id: string, @Arg('input', () => PersonInput) input: PersonInput, @Ctx() ctx: Context) {
      writeSchool(ctx);
      const userId = parseId(id, kind);
      return mutate(ctx, one, async (tx) => {
        const [current] = await tx.select().from(users).where(and(ofKind(ctx, userId), ownOnly(ctx, `Mutation.update${kind}`)));
        if (!current) throw notFound(kind);
        // An erased person stays erased (privacy/): nobody fills their profile again.
        if ((await tx.select({ id: personalDataErasures.id }).from(personalDataErasures).where(eq(personalDataErasures.userId, userId))).length)
          new Checks().add('id', 'erased', undefined).throwIfAny();
        checkPasswordChange(ctx, input.password, current.id);
        const values = await personValues(input, false);
        if (Object.keys(values).length === 0) return current;
        const [row] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
        return row;
      });
    }
  }
  return PeopleResolver;
}

export const StudentResolver = peopleResolver('Student', StudentTypes);
export const CollaboratorResolver = peopleResolver('Collaborator', CollaboratorTypes);
export const AdminResolver = peopleResolver('Admin', AdminTypes);
