import { SELLERS } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { EventResolver } from './event.resolver.js';
import { eventRoutes } from './event.routes.js';
import { EventSubscriptionResolver } from './event.subscription.resolver.js';

export const eventsModule = defineModule({
  name: 'events',
  resolvers: [EventResolver, EventSubscriptionResolver],
  routes: eventRoutes,
  rules: {
    operations: {
      // The pull feed of events: for those who integrate (the platform, the admin, app credentials).
      // Not collaborators: events carry commerce (orders, payments) and people's notifications, which a
      // collaborator's role does not read; not students.
      events: { 'Query.events': SELLERS, 'Subscription.events': SELLERS },
    },
  },
});
