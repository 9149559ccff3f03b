import type { Queryable } from '../../db/client.js';
import type { UserRow } from '../users/user.table.js';
import { passwordResetMails } from './password-reset.table.js';

/**
 * Sends a person their password reset link. Until the e-mail outbox lands, the link waits in
 * `password_reset_mails` (a pending mail, in the request's transaction): the one place the clear
 * link is kept. Never put it in an event, a log line or a reply. The mail outbox replaces this
 * function's body, and only it.
 */
export async function deliverPasswordResetLink(tx: Queryable, { user, link }: { user: UserRow; link: string }): Promise<void> {
  await tx.insert(passwordResetMails).values({ schoolId: user.schoolId, userId: user.id, recipient: user.email, link });
}
