import { SchoolProductResolver, SchoolProductsOfSchoolResolver } from './school-product.resolver.js';
import { schoolProductRoutes } from './school-product.routes.js';
import { SchoolProductTopicResolver } from './school-product-topic.resolver.js';

export const schoolProductsModule = {
  resolvers: [SchoolProductResolver, SchoolProductsOfSchoolResolver, SchoolProductTopicResolver],
  routes: schoolProductRoutes,
};
