import 'reflect-metadata';
import { and, eq, sql } from 'drizzle-orm';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { byIdLoader, findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { schools } from '../../db/school.table.js';
import type { Queryable } from '../../db/client.js';
import { normalEmail } from '../users/user.email.js';
import { users } from '../users/user.table.js';
import { enqueueInvitation } from './mail.enqueue.js';
import { mailSettingsOf } from './mail.settings.js';
import { MailsArgs, MailSettingsInput } from './mail.input.js';
import { isEssential, mailLocale } from './mail.kinds.js';
import { unsubscribeTarget } from './mail.links.js';
import { mails, mailSettings, mailUnsubscribes } from './mail.table.js';
import { Mail, MailConnection, MailSettings, MailUnsubscribeLink, MailUnsubscription } from './mail.type.js';

const MailPayload = Payload(Mail, 'mail');
const MailSettingsPayload = Payload(MailSettings, 'mailSettings');
const MailUnsubscriptionPayload = Payload(MailUnsubscription, 'unsubscription');
const mailById = byIdLoader('mail.byId', mails);

@Resolver(() => Mail)
export class MailResolver {
  @Query(() => MailConnection, {
    description: "The school's mails (the platform: every school's), oldest first, narrowed by kind, status, person or address. REST: GET /mails.",
  })
  mails(@Args(() => MailsArgs) args: MailsArgs, @Ctx() ctx: Context) {
    return paginate(
      ctx,
      mails,
      and(
        inSchool(ctx, mails.schoolId),
        args.kind ? eq(mails.kind, args.kind) : undefined,
        args.status ? eq(mails.status, args.status) : undefined,
        args.userId ? eq(mails.userId, parseId(args.userId, 'User')) : undefined,
        args.recipient ? eq(mails.recipient, normalEmail(args.recipient)) : undefined,
      ),
      args,
    );
  }

  @Query(() => Mail, { description: 'One mail of the school, with its text and HTML parts and headers. REST: GET /mails/:id.' })
  mail(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, mailById, parseId(id, 'Mail'), 'Mail');
  }

  @Query(() => MailSettings, { description: "The school's mail settings. REST: GET /mail_settings." })
  mailSettings(@Ctx() ctx: Context) {
    return mailSettingsOf(ctx.db, writeSchool(ctx));
  }

  @Mutation(() => MailSettingsPayload, {
    description: "Changes the school's sender name, reply-to and the kinds it turns off (never an essential one). REST: PUT /mail_settings.",
  })
  updateMailSettings(@Arg('input', () => MailSettingsInput) input: MailSettingsInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'mailSettings', async (tx) => {
      const checks = new Checks();
      const kinds = input.disabledKinds === null ? [] : input.disabledKinds;
      for (const kind of kinds ?? []) if (isEssential(kind)) checks.add('disabledKinds', 'inclusion', `${kind} is essential and cannot be turned off`);
      const replyTo = input.replyTo?.trim() || null;
      if (replyTo && !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(replyTo)) checks.add('replyTo', 'invalid', 'is not an e-mail address');
      const senderName = input.senderName?.trim() || null;
      if (senderName && /[\r\n<>"]/.test(senderName)) checks.add('senderName', 'invalid', 'may not hold line breaks, quotes or angle brackets');
      checks.throwIfAny();
      const set = {
        ...(input.senderName !== undefined ? { senderName } : {}),
        ...(input.replyTo !== undefined ? { replyTo } : {}),
        ...(kinds !== undefined ? { disabledKinds: [...new Set(kinds)] } : {}),
      };
      await tx
        .insert(mailSettings)
        .values({ schoolId, ...set })
        .onConflictDoUpdate({ target: mailSettings.schoolId, set: { ...set, updatedAt: sql`now()` } });
      return mailSettingsOf(tx, schoolId);
    });
  }

  @Mutation(() => MailPayload, {
    description: 'Sends a person of the school the invitation mail: a welcome with a link to set a password (essential: always sent).',
  })
  sendWelcomeMail(@Arg('userId', () => ID) userId: string, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    const id = parseId(userId, 'User');
    return mutate(ctx, 'mail', async (tx) => {
      const [person] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, id), eq(users.schoolId, schoolId)));
      if (!person) throw notFound('User');
      return enqueueInvitation(tx, { schoolId, userId: id }, ctx.now());
    });
  }

  @Query(() => MailUnsubscribeLink, {
    description:
      'What a signed List-Unsubscribe token names (the person’s language and school, whether they already unsubscribed), changing nothing; needs no credential. ' +
      'REST: GET /mails/unsubscribe?token=… (a browser gets a page asking to confirm, whose form POSTs the one-click body).',
  })
  async mailUnsubscribeLink(@Arg('token', () => String, { nullable: true }) token: string | null, @Ctx() ctx: Context): Promise<MailUnsubscribeLink> {
    const target = token ? unsubscribeTarget(token.trim(), new Date()) : null;
    const person = target ? await personOf(ctx.db, target) : null;
    return person ? { valid: true, ...person } : { valid: false, unsubscribed: false, locale: null, schoolName: null };
  }

  @Mutation(() => MailUnsubscriptionPayload, {
    description:
      "Unsubscribes the person a mail's signed List-Unsubscribe token names from the school's non-essential mails; needs no credential (RFC 8058 one-click). " +
      'REST: POST /mails/unsubscribe?token=… with the body List-Unsubscribe=One-Click.',
  })
  unsubscribeFromMails(@Arg('token', () => String) token: string, @Ctx() ctx: Context) {
    return mutate(ctx, 'unsubscription', async (tx) => {
      const target = unsubscribeTarget(token.trim(), new Date());
      if (!target) new Checks().add('token', 'invalid', 'is not an unsubscribe link of this service, or it expired').throwIfAny();
      const { schoolId, userId } = target!;
      const [person] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.schoolId, schoolId)));
      // The person was deleted since: nothing will be sent to them anyway.
      if (person) await tx.insert(mailUnsubscribes).values({ schoolId, userId }).onConflictDoNothing();
      const named = await personOf(tx, target!);
      return { unsubscribed: true, locale: named?.locale ?? null, schoolName: named?.schoolName ?? null };
    });
  }
}

/** The person a token names, in their school: their mail language, the school's name, whether they unsubscribed. */
async function personOf(db: Queryable, target: { schoolId: number; userId: number }): Promise<Omit<MailUnsubscribeLink, 'valid'> | null> {
  const [row] = await db
    .select({ locale: users.locale, schoolLocale: schools.locale, schoolName: schools.name, unsubscribed: mailUnsubscribes.id })
    .from(users)
    .innerJoin(schools, eq(schools.id, users.schoolId))
    .leftJoin(mailUnsubscribes, eq(mailUnsubscribes.userId, users.id))
    .where(and(eq(users.id, target.userId), eq(users.schoolId, target.schoolId)));
  return row ? { locale: mailLocale(row.locale, row.schoolLocale), schoolName: row.schoolName, unsubscribed: row.unsubscribed !== null } : null;
}
