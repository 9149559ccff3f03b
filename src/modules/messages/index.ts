import { AUTHORS, ENROLLERS, resource, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ChannelResolver } from './channel.resolver.js';
import { MessageFieldsResolver } from './message-fields.resolver.js';
import { messageEventCatalog } from './message.events.js';
import { MessageResolver } from './message.resolver.js';
import { messageRoutes } from './message.routes.js';
import { MessageSubscriptionResolver } from './message.subscription.resolver.js';

export const messagesModule = defineModule({
  name: 'messages',
  resolvers: [ChannelResolver, MessageResolver, MessageFieldsResolver, MessageSubscriptionResolver],
  routes: messageRoutes,
  rules: {
    operations: {
      // A student reads its own, and posts in the channels of its own enrollments (message.create.ts: postAsStudent).
      messages: {
        ...resource('channel', 'channels', STAFF_AND_OWN, AUTHORS),
        ...resource('message', 'messages', STAFF_AND_OWN, ENROLLERS),
        'Mutation.createMessage': { ...ENROLLERS, student: 'own' },
      },
      // Over WebSocket (graphql/subscriptions.ts): the readers of the same rows.
      subscriptions: { 'Subscription.messageCreated': STAFF_AND_OWN },
    },
    fields: { 'MessageSender.email': 'personal' },
  },
  errors: { name: 'Message', nodes: ['Channel', 'Message'], codes: ['present', 'forbidden'] },
  events: messageEventCatalog,
});
