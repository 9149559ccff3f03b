import { AdminResolver, CollaboratorResolver, StudentResolver } from './user.resolver.js';

export const usersModule = {
  resolvers: [StudentResolver, CollaboratorResolver, AdminResolver],
  routes: [],
};
