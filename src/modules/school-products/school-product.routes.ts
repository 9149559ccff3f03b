import { pathParam, rows, type Route } from '../../rest/route-table.js';

const product = '/school_products/:id';
const topic = '/school_product_topics/:id';
const ofProduct = { args: { schoolProductId: pathParam('school_product_id') } };

export const schoolProductRoutes: Route[] = [
  rows.list('/school_products', 'schoolProducts'),
  rows.create('/school_products', 'createSchoolProduct', 'school_product', product),
  rows.show(product, 'schoolProduct'),
  rows.update(product, 'updateSchoolProduct', 'school_product', product),
  rows.destroy(product, 'deleteSchoolProduct'),

  rows.list('/school_products/:school_product_id/school_product_topics', 'schoolProductTopics', ofProduct),
  rows.create('/school_products/:school_product_id/school_product_topics', 'createSchoolProductTopic', 'school_product_topic', topic, ofProduct),
  rows.show(topic, 'schoolProductTopic'),
  rows.update(topic, 'updateSchoolProductTopic', 'school_product_topic', topic),
  rows.destroy(topic, 'deleteSchoolProductTopic'),
];
