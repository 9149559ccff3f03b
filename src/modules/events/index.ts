import { EventResolver } from './event.resolver.js';
import { eventRoutes } from './event.routes.js';
import { EventSubscriptionResolver } from './event.subscription.resolver.js';

export const eventsModule = {
  resolvers: [EventResolver, EventSubscriptionResolver] as Function[],
  routes: eventRoutes,
};
