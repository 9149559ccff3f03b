import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { mailSettings } from './mail.table.js';

/** A school's mail settings; the defaults (school's name, no reply-to, every kind on) when it never set them. */
export async function mailSettingsOf(db: Queryable, schoolId: number) {
  const [row] = await db.select().from(mailSettings).where(eq(mailSettings.schoolId, schoolId));
  return { schoolId, senderName: row?.senderName ?? null, replyTo: row?.replyTo ?? null, disabledKinds: row?.disabledKinds ?? [] };
}
