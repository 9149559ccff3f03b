import { pathParam, rows, type Route } from '../../rest/route-table.js';

const product = '/school_products/:id';
const topic = '/school_product_topics/:id';
const ofProduct = { args: { schoolProductId: pathParam('school_product_id') } };

export const schoolProductRoutes: Route[] = [
  ...rows.resource('/school_products', product, 'schoolProduct', 'schoolProducts'),
  ...rows.resource('/school_products/:school_product_id/school_product_topics', topic, 'schoolProductTopic', 'schoolProductTopics', ofProduct),
];
