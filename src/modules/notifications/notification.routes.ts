import { param, pathParam, rows, type Route } from '../../rest/route-table.js';

const show = '/notifications/:id';
const unread = { unread: param('unread') };
const ofStudent = { args: { studentId: pathParam('student_id') } };
const ofCollaborator = { args: { collaboratorId: pathParam('collaborator_id') } };

export const notificationRoutes: Route[] = [
  // Lists reply {"notifications": [...]}; `?unread=true|false` filters.
  rows.list('/students/:student_id/notifications', 'notifications', { args: { ...ofStudent.args, ...unread }, wrap: 'notifications' }),
  rows.list('/collaborators/:collaborator_id/notifications', 'notifications', { args: { ...ofCollaborator.args, ...unread }, wrap: 'notifications' }),
  // The spec lists the singular show path; the plural twin answers too.
  rows.show('/notification/:id', 'notification'),
  rows.show(show, 'notification'),
  rows.create('/students/:student_id/notifications', 'createNotification', 'notification', show, ofStudent),
  rows.create('/collaborators/:collaborator_id/notifications', 'createNotification', 'notification', show, ofCollaborator),
  rows.action(['PUT', 'PATCH'], '/notifications/:id/toggle_read', 'toggleNotificationRead'),
];
