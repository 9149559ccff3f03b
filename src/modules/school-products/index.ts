import { param, pathParam, rows, type Route } from '../../rest/route-table.js';
import { SchoolProductRelatedResolver, SchoolProductResolver, SchoolProductsOfSchoolResolver } from './school-product.resolver.js';
import { ProductCourseCompositionResolver, ProductPathCompositionResolver } from './school-product-content.resolver.js';
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

export const schoolProductsModule = {
  resolvers: [SchoolProductResolver, SchoolProductRelatedResolver, SchoolProductsOfSchoolResolver, SchoolProductTopicResolver, ProductCourseCompositionResolver, ProductPathCompositionResolver],
  routes: [...schoolProductRoutes, ...compositionRoutes],
};
