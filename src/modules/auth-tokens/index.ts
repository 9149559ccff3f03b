import type { Route } from '../../rest/route-table.js';
import { ApiTokenResolver } from './api-token.resolver.js';

export const authTokensModule = {
  resolvers: [ApiTokenResolver] as Function[],
  routes: [] as Route[],
};
