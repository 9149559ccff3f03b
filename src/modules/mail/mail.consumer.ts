import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { consumeInTransaction, type DomainEvent, type EventPayload } from '../events/events.js';
import { forumQuestions } from '../forums/forum.table.js';
import { orderItems, orders, paymentOptions } from '../orders/order.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';
import { enqueueMail, enqueueMails } from './mail.enqueue.js';

/**
 * The mails the domain's events cause, written in the events' own transaction: the producers know
 * no mail (events/events.ts' consumeInTransaction), and a write that emits no event (an import with
 * `created_at`) sends none. Each handler reads only for its own events.
 */
type Of<N extends DomainEvent['name']> = Extract<DomainEvent, { name: N }>;
const payloadOf = <N extends DomainEvent['name']>(e: Of<N>) => e.payload as EventPayload<N>;

/** Groups rows by their school: a batch of events is usually of one school, but need not be. */
function bySchool<T extends { schoolId: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(row.schoolId, [...(groups.get(row.schoolId) ?? []), row]);
  return groups;
}

async function productTitles(tx: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.select({ id: schoolProducts.id, title: schoolProducts.title }).from(schoolProducts).where(inArray(schoolProducts.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Each handler takes every event of its name the statement wrote: a batch (createEnrollments) costs a few statements, not a few per row. */
const handlers: { [N in DomainEvent['name']]?: (tx: Queryable, events: Of<N>[]) => Promise<void> } = {
  async 'enrollment.activated'(tx, events) {
    const rows = await tx
      .select({ schoolId: enrollments.schoolId, studentId: enrollments.studentId, availableUntil: enrollments.availableUntil, productTitle: schoolProducts.title })
      .from(enrollments)
      .leftJoin(schoolProducts, eq(schoolProducts.id, enrollments.schoolProductId))
      .where(inArray(enrollments.id, events.map((e) => e.subjectId!)));
    for (const [schoolId, group] of bySchool(rows))
      await enqueueMails(
        tx,
        schoolId,
        'enrollment_activated',
        group.map((r) => ({ userId: r.studentId, data: { productTitle: r.productTitle ?? '', availableUntil: r.availableUntil } })),
      );
  },

  async 'certificate.issued'(tx, events) {
    const titles = await productTitles(tx, events.map((e) => payloadOf(e).schoolProductId));
    for (const [schoolId, group] of bySchool(events))
      await enqueueMails(
        tx,
        schoolId,
        'certificate_issued',
        group.map((e) => {
          const p = payloadOf(e);
          return { userId: p.studentId, data: { productTitle: titles.get(p.schoolProductId) ?? '', code: p.code } };
        }),
      );
  },

  // The receipt of a paid order: order.confirmed is the move to `confirmed` (payment confirmed).
  async 'order.confirmed'(tx, events) {
    for (const event of events) await receipt(tx, event);
  },

  // The question's author hears of the staff's first answer (not of one they wrote themselves).
  async 'forum_question.answered'(tx, events) {
    for (const event of events) await answered(tx, event);
  },

  // Everyone the message notified (its channels' people but the sender).
  async 'message.created'(tx, events) {
    for (const event of events) await newMessage(tx, event);
  },
};

async function receipt(tx: Queryable, event: Of<'order.confirmed'>) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, event.subjectId!));
  if (!order) return;
  const items = await tx
    .select({ title: schoolProducts.title, option: paymentOptions.name, amount: orderItems.amountToPay, total: orderItems.total })
    .from(orderItems)
    .innerJoin(paymentOptions, eq(paymentOptions.id, orderItems.paymentOptionId))
    .leftJoin(schoolProducts, eq(schoolProducts.id, paymentOptions.schoolProductId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  await enqueueMail(tx, {
    schoolId: event.schoolId,
    userId: order.studentId,
    kind: 'order_receipt',
    data: {
      orderId: order.id,
      total: order.amountToPay || order.total,
      items: items.map((i) => ({ title: i.title ?? i.option, amount: i.amount ?? i.total })),
      paidAt: order.confirmedAt ?? undefined,
    },
  });
}

async function answered(tx: Queryable, event: Of<'forum_question.answered'>) {
  const p = payloadOf(event);
  const [question] = await tx
    .select({ userId: forumQuestions.userId, title: forumQuestions.title })
    .from(forumQuestions)
    .where(eq(forumQuestions.id, event.subjectId!));
  if (!question?.userId || question.userId === p.user_id) return;
  const [answerer] = p.user_id ? await tx.select({ name: users.fullName }).from(users).where(eq(users.id, p.user_id)) : [];
  await enqueueMail(tx, {
    schoolId: event.schoolId,
    userId: question.userId,
    kind: 'forum_question_answered',
    data: { questionTitle: question.title, answeredBy: answerer?.name ?? null, questionId: event.subjectId! },
    quotesUserId: p.user_id ?? null,
  });
}

async function newMessage(tx: Queryable, event: Of<'message.created'>) {
  const p = payloadOf(event);
  const recipients = p.notifiedUserIds.filter((id) => id !== p.senderId);
  if (recipients.length === 0) return;
  const [sender] = await tx.select({ name: users.fullName }).from(users).where(and(eq(users.id, p.senderId), eq(users.schoolId, event.schoolId)));
  const senderName = sender?.name ?? '';
  await enqueueMails(tx, event.schoolId, 'new_message', recipients.map((userId) => ({ userId, data: { senderName }, quotesUserId: p.senderId })));
}

consumeInTransaction('mails', async (tx, events) => {
  const byName = new Map<string, DomainEvent[]>();
  for (const event of events) if (handlers[event.name]) byName.set(event.name, [...(byName.get(event.name) ?? []), event]);
  for (const [name, group] of byName) await (handlers[name as DomainEvent['name']] as (tx: Queryable, events: DomainEvent[]) => Promise<void>)(tx, group);
});

