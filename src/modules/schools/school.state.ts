import { schoolStatus } from './school.table.js';

export type SchoolStatus = (typeof schoolStatus.enumValues)[number];
export const schoolEvents = ['try_out', 'block', 'active', 'overdue', 'suspend', 'cancel'] as const;
export type SchoolEvent = (typeof schoolEvents)[number];

/**
 * The school lifecycle (documented in the README). A school starts `pending`; the wizard starts it
 * with `try_out`. `cancel` is final; every other event names the states it may leave from.
 */
export const schoolTransitions: Record<SchoolEvent, { from: readonly SchoolStatus[]; to: SchoolStatus }> = {
  try_out: { from: ['pending'], to: 'trial' },
  active: { from: ['pending', 'trial', 'overdue', 'blocked', 'suspended'], to: 'active' },
  overdue: { from: ['active'], to: 'overdue' },
  block: { from: ['trial', 'active', 'overdue'], to: 'blocked' },
  suspend: { from: ['trial', 'active', 'overdue', 'blocked'], to: 'suspended' },
  cancel: { from: ['pending', 'trial', 'active', 'overdue', 'blocked', 'suspended'], to: 'canceled' },
};

/** The state an event leads to from `current`, or null when the event may not happen there. */
export function nextSchoolStatus(current: SchoolStatus, event: SchoolEvent): SchoolStatus | null {
  const transition = schoolTransitions[event];
  return transition.from.includes(current) ? transition.to : null;
}
