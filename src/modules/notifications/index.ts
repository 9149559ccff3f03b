import { ENROLLERS, reads, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { CollaboratorNotificationsResolver, StudentNotificationsResolver } from './notification-fields.resolver.js';
import './notification.consumer.js';
import { notificationEventCatalog } from './notification.events.js';
import { NotificationResolver } from './notification.resolver.js';
import { notificationRoutes } from './notification.routes.js';
import { NotificationSubscriptionResolver } from './notification.subscription.resolver.js';

export const notificationsModule = defineModule({
  name: 'notifications',
  resolvers: [NotificationResolver, StudentNotificationsResolver, CollaboratorNotificationsResolver, NotificationSubscriptionResolver],
  routes: notificationRoutes,
  rules: {
    operations: {
      // A student reads its own and marks its own read; the subscription's readers are the same.
      messages: {
        ...reads('notification', 'notifications', STAFF_AND_OWN),
        'Mutation.createNotification': ENROLLERS,
        'Mutation.toggleNotificationRead': STAFF_AND_OWN,
        'Subscription.notificationReceived': STAFF_AND_OWN,
      },
    },
  },
  errors: { name: 'Notification', nodes: ['Notification'], codes: [] },
  events: notificationEventCatalog,
});
