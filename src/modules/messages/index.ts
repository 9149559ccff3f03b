import { ChannelResolver } from './channel.resolver.js';
import { MessageFieldsResolver } from './message-fields.resolver.js';
import { MessageResolver } from './message.resolver.js';
import { messageRoutes } from './message.routes.js';

export const messagesModule = {
  resolvers: [ChannelResolver, MessageResolver, MessageFieldsResolver] as Function[],
  routes: messageRoutes,
};
