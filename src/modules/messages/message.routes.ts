import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const show = '/messages/:id';
const list = (path: string, args: Route['args']) => rows.list(path, 'messages', { args, wrap: 'messages' });

export const messageRoutes: Route[] = [
  // Lists reply {"messages": [...]}. The spec's /enrollments/:school_product_id/messages is this same path.
  list('/channels/:channel_id/messages', { channelId: pathParam('channel_id') }),
  list('/schools/:school_id/messages', { schoolId: pathParam('school_id') }),
  list('/enrollments/:enrollment_id/messages', { enrollmentId: pathParam('enrollment_id') }),
  // The spec lists the singular show path; the plural twin answers too.
  rows.show('/message/:id', 'message'),
  rows.show(show, 'message'),
  // `channel_ids` and `owners` are taken inside the message hash or beside it (`owners[id]=`, `owners[type]=`).
  rows.create('/channels/:channel_id/messages', 'createMessage', 'message', show, {
    args: { channelId: pathParam('channel_id'), input: resource('message', { extra: ['channel_ids', 'owners'] }) },
  }),
  rows.update(show, 'updateMessage', 'message', show),
  rows.destroy(show, 'deleteMessage'),

  // REST twins of the GraphQL-only channels, filtered by school product or enrollment.
  rows.list('/channels', 'channels', { args: { schoolProductId: param('school_product_id'), enrollmentId: param('enrollment_id') } }),
  ...rows.resource('/channels', '/channels/:id', 'channel', 'channels').slice(1),
];
