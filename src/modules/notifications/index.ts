import { CollaboratorNotificationsResolver, StudentNotificationsResolver } from './notification-fields.resolver.js';
import { NotificationResolver } from './notification.resolver.js';
import { notificationRoutes } from './notification.routes.js';
import { NotificationSubscriptionResolver } from './notification.subscription.resolver.js';

export const notificationsModule = {
  resolvers: [NotificationResolver, StudentNotificationsResolver, CollaboratorNotificationsResolver, NotificationSubscriptionResolver] as Function[],
  routes: notificationRoutes,
};
