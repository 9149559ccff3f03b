import type { SchoolStatus } from '../db/school.table.js';
import type { Role } from './credential.js';

// Here, beside the gate, not in modules/schools: the guard lets a read-only school fire a lifecycle event alone.

export const schoolEvents = ['try_out', 'block', 'active', 'overdue', 'suspend', 'cancel'] as const;
export type SchoolEvent = (typeof schoolEvents)[number];

/**
 * The school lifecycle (rendered in the README): each event names the states it may leave from,
 * the state it leads to, and who may fire it from where. The platform applies `overdue`, `block`
 * and `suspend`, and only the platform lifts a block or a suspension (`active` from `blocked` or
 * `suspended`). A school's admin may start its trial, activate a pending, trial or overdue school
 * (it paid), and cancel it. `cancel` is final.
 */
export const schoolTransitions: Record<SchoolEvent, { from: readonly SchoolStatus[]; to: SchoolStatus; adminFrom: readonly SchoolStatus[] }> = {
  try_out: { from: ['pending'], to: 'trial', adminFrom: ['pending'] },
  active: { from: ['pending', 'trial', 'overdue', 'blocked', 'suspended'], to: 'active', adminFrom: ['pending', 'trial', 'overdue'] },
  overdue: { from: ['active'], to: 'overdue', adminFrom: [] },
  block: { from: ['trial', 'active', 'overdue'], to: 'blocked', adminFrom: [] },
  suspend: { from: ['trial', 'active', 'overdue', 'blocked'], to: 'suspended', adminFrom: [] },
  cancel: { from: ['pending', 'trial', 'active', 'overdue', 'blocked', 'suspended'], to: 'canceled', adminFrom: ['pending', 'trial', 'active', 'overdue', 'blocked', 'suspended'] },
};

/**
 * The event of an input that holds an `event` and nothing else (`updateSchool`'s, unset fields
 * left out), or null: a read-only school may fire an event, never change its settings with it.
 */
export function loneEvent(input: unknown): SchoolEvent | null {
  if (!input || typeof input !== 'object') return null;
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  const [[key, value] = []] = given;
  return given.length === 1 && key === 'event' && schoolEvents.includes(value as SchoolEvent) ? (value as SchoolEvent) : null;
}

/** The state an event leads to from `current`, or null when the event may not happen there. */
export function nextSchoolStatus(current: SchoolStatus, event: SchoolEvent): SchoolStatus | null {
  const transition = schoolTransitions[event];
  return transition.from.includes(current) ? transition.to : null;
}

/** Whether `role` may fire `event` on a school that is `current` (the platform everywhere it may happen). */
export function mayFireSchoolEvent(role: Role, current: SchoolStatus, event: SchoolEvent): boolean {
  if (role === 'platform') return true;
  return role === 'admin' && schoolTransitions[event].adminFrom.includes(current);
}
