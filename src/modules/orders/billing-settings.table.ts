import { sql } from 'drizzle-orm';
import { check, integer, unique } from 'drizzle-orm/pg-core';
import { schoolTable } from '../../db/tables.js';

/**
 * A school's terms for recurring invoices (order.recurring.ts); a school without a row, or a null
 * column, takes the environment's defaults (BILLING_DUE_DAYS, BILLING_GRACE_DAYS).
 */
export const billingSettings = schoolTable(
  'billing_settings',
  {
    /** Days from an invoice's opening to its due date. */
    dueDays: integer(),
    /** Days past the due date an overdue invoice waits before it is unpaid and access is suspended. */
    graceDays: integer(),
  },
  (t) => [
    unique('billing_settings_school_id_key').on(t.schoolId),
    check('billing_settings_due_days_range', sql`${t.dueDays} between 0 and 365`),
    check('billing_settings_grace_days_range', sql`${t.graceDays} between 0 and 365`),
  ],
);
