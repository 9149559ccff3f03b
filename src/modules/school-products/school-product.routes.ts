import { beyondSpec, pathParam, rows, type Route } from '../../rest/route-table.js';

const product = '/school_products/:id';
const topic = '/school_product_topics/:id';
const ofProduct = { args: { schoolProductId: pathParam('school_product_id') } };

export const schoolProductRoutes: Route[] = [
  ...rows.resource('/school_products', product, 'schoolProduct', 'schoolProducts'),
  ...rows.resource('/school_products/:school_product_id/school_product_topics', topic, 'schoolProductTopic', 'schoolProductTopics', ofProduct),
  ...edoolsProductRoutes(),
];

/**
 * Beyond the spec, the Edools v1 clients' routes: a v1 product is today's school product (its hash is
 * `product`), and `/schools/:id/...` names the caller's school (another school's id is a 404).
 */
function edoolsProductRoutes(): Route[] {
  const v1Product = '/products/:id';
  const ofSchool = { args: { schoolId: pathParam() } };
  return [
    ...beyondSpec('a v1 product is a school product (the hash `product`)', [
      rows.show(v1Product, 'schoolProduct'),
      rows.update(v1Product, 'updateSchoolProduct', 'product', v1Product),
      rows.destroy(v1Product, 'deleteSchoolProduct'),
      rows.list('/schools/:id/products', 'schoolProducts', ofSchool),
      rows.create('/schools/:id/products', 'createSchoolProduct', 'product', v1Product, ofSchool),
    ]),
    ...beyondSpec("school products of the path's school (the caller's: another is 404)", [
      rows.list('/schools/:id/school_products', 'schoolProducts', ofSchool),
      rows.create('/schools/:id/school_products', 'createSchoolProduct', 'school_product', product, ofSchool),
    ]),
  ];
}
