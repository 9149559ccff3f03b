import { ChannelResolver } from './channel.resolver.js';
import { MessageFieldsResolver } from './message-fields.resolver.js';
import { MessageResolver } from './message.resolver.js';
import { messageRoutes } from './message.routes.js';
import { MessageSubscriptionResolver } from './message.subscription.resolver.js';

export const messagesModule = {
  resolvers: [ChannelResolver, MessageResolver, MessageFieldsResolver, MessageSubscriptionResolver] as Function[],
  routes: messageRoutes,
};
