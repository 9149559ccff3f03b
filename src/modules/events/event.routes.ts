import { param, rows, type Route } from '../../rest/route-table.js';

/**
 * `GET /events?after=<cursor>&names=a,b` (or `names[]=`): the feed after a cursor; each event carries
 * its `cursor`, the last one's is the next `after`. Without `page` the list is whole up to now;
 * `page=1&per_page=N` gives N events after the cursor.
 */
export const eventRoutes: Route[] = [rows.list('/events', 'events', { args: { after: param('after'), names: param('names') } })];
