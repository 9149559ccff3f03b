import { CollaboratorNotificationsResolver, StudentNotificationsResolver } from './notification-fields.resolver.js';
import { NotificationResolver } from './notification.resolver.js';
import { notificationRoutes } from './notification.routes.js';

export const notificationsModule = {
  resolvers: [NotificationResolver, StudentNotificationsResolver, CollaboratorNotificationsResolver] as Function[],
  routes: notificationRoutes,
};
