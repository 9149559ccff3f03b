import { AUTHORS, CATALOGUE, resource } from '../../auth/role-matrix.js';
import { param, pathParam, rows, type Route } from '../../rest/route-table.js';
import { defineModule } from '../define-module.js';
import { SchoolProductRelatedResolver, SchoolProductResolver, SchoolProductsOfSchoolResolver } from './school-product.resolver.js';
import { ProductCourseCompositionResolver, ProductPathCompositionResolver } from './school-product-content.resolver.js';
import { schoolProductEventCatalog } from './school-product.events.js';
import { schoolProductRoutes } from './school-product.routes.js';
import { SchoolProductTopicResolver } from './school-product-topic.resolver.js';

/**
 * One course or path of a product's composition (routes the spec does not list): POST adds
 * (`course_id`, optional `position`), PUT/PATCH moves (`position`), DELETE removes (204). The
 * product's GET lists of the same paths show its content.
 */
const product = pathParam('school_product_id');
const compositionRoutes: Route[] = (['course', 'path'] as const).flatMap((kind) => {
  const list = `/school_products/:school_product_id/${kind}s`;
  const one = `${list}/:${kind}_id`;
  const Kind = kind === 'course' ? 'Course' : 'Path';
  const child = `${kind}Id`;
  const position = param('position');
  return [
    rows.action('POST', list, `add${Kind}ToSchoolProduct`, { args: { id: product, [child]: param(`${kind}_id`), position } }),
    rows.action(['PUT', 'PATCH'], one, `move${Kind}InSchoolProduct`, { args: { id: product, [child]: pathParam(`${kind}_id`), position } }),
    rows.destroy(one, `remove${Kind}FromSchoolProduct`, { args: { id: product, [child]: pathParam(`${kind}_id`) } }),
  ];
});

export const schoolProductsModule = defineModule({
  name: 'school-products',
  resolvers: [SchoolProductResolver, SchoolProductRelatedResolver, SchoolProductsOfSchoolResolver, SchoolProductTopicResolver, ProductCourseCompositionResolver, ProductPathCompositionResolver],
  routes: [...schoolProductRoutes, ...compositionRoutes],
  rules: {
    operations: {
      catalogue: {
        ...resource('schoolProduct', 'schoolProducts', CATALOGUE, AUTHORS),
        'Mutation.addCourseToSchoolProduct': AUTHORS,
        'Mutation.removeCourseFromSchoolProduct': AUTHORS,
        'Mutation.moveCourseInSchoolProduct': AUTHORS,
        'Mutation.addPathToSchoolProduct': AUTHORS,
        'Mutation.removePathFromSchoolProduct': AUTHORS,
        'Mutation.movePathInSchoolProduct': AUTHORS,
        ...resource('schoolProductTopic', 'schoolProductTopics', CATALOGUE, AUTHORS),
      },
    },
  },
  errors: { name: 'SchoolProduct', nodes: ['SchoolProduct', 'SchoolProductTopic'], codes: [] },
  events: schoolProductEventCatalog,
});
