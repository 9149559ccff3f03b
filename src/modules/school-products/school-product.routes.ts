import { pathParam, resource, type Route } from '../../rest/route-table.js';

const product = '/school_products/:id';
const topic = '/school_product_topics/:id';

export const schoolProductRoutes: Route[] = [
  { method: 'GET', path: '/school_products', field: 'schoolProducts', reply: 'list' },
  { method: 'POST', path: '/school_products', field: 'createSchoolProduct', args: { input: resource('school_product') }, reply: 'create', location: product },
  { method: 'GET', path: '/school_products/:id', field: 'schoolProduct', args: { id: pathParam() }, reply: 'show' },
  {
    method: ['PUT', 'PATCH'],
    path: '/school_products/:id',
    field: 'updateSchoolProduct',
    args: { id: pathParam(), input: resource('school_product') },
    reply: 'update',
    location: product,
  },
  { method: 'DELETE', path: '/school_products/:id', field: 'deleteSchoolProduct', args: { id: pathParam() }, reply: 'destroy' },

  {
    method: 'GET',
    path: '/school_products/:school_product_id/school_product_topics',
    field: 'schoolProductTopics',
    args: { schoolProductId: pathParam('school_product_id') },
    reply: 'list',
  },
  {
    method: 'POST',
    path: '/school_products/:school_product_id/school_product_topics',
    field: 'createSchoolProductTopic',
    args: { schoolProductId: pathParam('school_product_id'), input: resource('school_product_topic') },
    reply: 'create',
    location: topic,
  },
  { method: 'GET', path: '/school_product_topics/:id', field: 'schoolProductTopic', args: { id: pathParam() }, reply: 'show' },
  {
    method: ['PUT', 'PATCH'],
    path: '/school_product_topics/:id',
    field: 'updateSchoolProductTopic',
    args: { id: pathParam(), input: resource('school_product_topic') },
    reply: 'update',
    location: topic,
  },
  { method: 'DELETE', path: '/school_product_topics/:id', field: 'deleteSchoolProductTopic', args: { id: pathParam() }, reply: 'destroy' },
];
