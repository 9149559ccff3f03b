import { and, asc, eq } from 'drizzle-orm';
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

async function productTitle(tx: Queryable, id: number): Promise<string> {
  const [row] = await tx.select({ title: schoolProducts.title }).from(schoolProducts).where(eq(schoolProducts.id, id));
  return row?.title ?? '';
}

const handlers: { [N in DomainEvent['name']]?: (tx: Queryable, event: Of<N>) => Promise<void> } = {
  async 'enrollment.activated'(tx, event) {
    const p = payloadOf(event);
    const [enrollment] = await tx.select({ availableUntil: enrollments.availableUntil }).from(enrollments).where(eq(enrollments.id, event.subjectId!));
    await enqueueMail(tx, {
      schoolId: event.schoolId,
      userId: p.studentId,
      kind: 'enrollment_activated',
      data: { productTitle: await productTitle(tx, p.schoolProductId), availableUntil: enrollment?.availableUntil ?? null },
    });
  },

  async 'certificate.issued'(tx, event) {
    const p = payloadOf(event);
    await enqueueMail(tx, {
      schoolId: event.schoolId,
      userId: p.studentId,
      kind: 'certificate_issued',
      data: { productTitle: await productTitle(tx, p.schoolProductId), code: p.code },
    });
  },

  // The receipt of a paid order: order.confirmed is the move to `confirmed` (payment confirmed).
  async 'order.confirmed'(tx, event) {
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
  },

  // The question's author hears of the staff's first answer (not of one they wrote themselves).
  async 'forum_question.answered'(tx, event) {
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
      data: { questionTitle: question.title, answeredBy: answerer?.name ?? null },
    });
  },

  // Everyone the message notified (its channels' people but the sender).
  async 'message.created'(tx, event) {
    const p = payloadOf(event);
    const recipients = p.notifiedUserIds.filter((id) => id !== p.senderId);
    if (recipients.length === 0) return;
    const [sender] = await tx.select({ name: users.fullName }).from(users).where(and(eq(users.id, p.senderId), eq(users.schoolId, event.schoolId)));
    const senderName = sender?.name ?? '';
    await enqueueMails(tx, event.schoolId, 'new_message', recipients.map((userId) => ({ userId, data: { senderName } })));
  },
};

consumeInTransaction('mails', async (tx, events) => {
  for (const event of events) {
    const handle = handlers[event.name] as ((tx: Queryable, event: DomainEvent) => Promise<void>) | undefined;
    if (handle) await handle(tx, event);
  }
});

