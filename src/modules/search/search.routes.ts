import { param, rows, type Route } from '../../rest/route-table.js';

/** Search's REST twin: the hits as a list (page/per_page as every list), `q` the text, `types` a comma-separated list of kinds. */
export const searchRoutes: Route[] = [
  rows.list('/search', 'search', {
    args: { text: param('q'), types: param('types') },
    operationId: 'search',
    summary: 'Search students, courses, lessons and forum questions',
  }),
];
