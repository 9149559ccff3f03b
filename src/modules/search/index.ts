import { STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { SearchResolver } from './search.resolver.js';
import { searchRoutes } from './search.routes.js';

export const searchModule = defineModule({
  name: 'search',
  resolvers: [SearchResolver],
  routes: searchRoutes,
  rules: {
    // Staff find every kind their role may list; a student (own) only what its lists show it (search.rules.ts).
    operations: { content: { 'Query.search': STAFF_AND_OWN } },
  },
});
