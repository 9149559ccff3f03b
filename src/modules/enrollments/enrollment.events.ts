import { z } from 'zod';
import { changed, event, id, isoTime } from '../events/catalog.js';

const enrollment = z.object({ studentId: id, registrationId: id, schoolProductId: id, status: z.string() });

/** The events of enrollments (the catalog: events/catalog.ts). */
export const enrollmentEventCatalog = {
  'enrollment.created': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['createEnrollment', 'createEnrollments', 'createStudents', 'confirmPayment', 'updatePaymentStatus', 'receiveGatewayNotification', 'createOrder', 'updateOrder', 'importOrder'],
    description: 'An enrollment was created.',
    payload: enrollment,
  }),
  'enrollment.updated': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['updateEnrollment'],
    description: 'An enrollment was changed.',
    payload: enrollment.extend({ changed }),
  }),
  'enrollment.activated': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['createEnrollment', 'createEnrollments', 'createStudents', 'updateEnrollment', 'confirmPayment', 'updatePaymentStatus', 'receiveGatewayNotification', 'createOrder', 'updateOrder', 'importOrder'],
    description: 'An enrollment became active.',
    payload: enrollment,
  }),
  'enrollment.canceled': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['updateEnrollment', 'refundPayment', 'updatePaymentStatus', 'receiveGatewayNotification', 'cancelSubscription', 'the recurring scheduler (orders/order.recurring.ts)'],
    description: 'An enrollment was canceled (status canceled by hand, its order refunded in full, or its subscription ended).',
    payload: enrollment,
  }),
  'enrollment.expired': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['the expiry sweep (once a minute)', 'updateEnrollment'],
    description: 'An enrollment ran out (available_until passed; recorded once per available_until) or was set to expired.',
    payload: z.object({ availableUntil: isoTime.nullable() }),
  }),
};

type EnrollmentEventCatalog = typeof enrollmentEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends EnrollmentEventCatalog {}
}
