import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import { given } from '../../graphql/ids.js';
import { existingId } from '../../graphql/references.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { SchoolProductTopicInput } from './school-product.input.js';
import { schoolProductById, topicById } from './school-product.loaders.js';
import { schoolProducts, schoolProductTopics } from './school-product.table.js';
import { SchoolProductTopic } from './school-product.type.js';

/** The columns of a create (title and description required) or an update (a schoolProductId moves the topic). */
async function topicColumns(tx: Queryable, input: SchoolProductTopicInput, current?: typeof schoolProductTopics.$inferSelect) {
  if (!current) {
    new Checks().required('title', input.title).required('description', input.description).throwIfAny();
    return { title: input.title!.trim(), description: input.description! };
  }
  const checks = new Checks().notCleared('title', input.title).notCleared('description', input.description).notCleared('schoolProductId', input.schoolProductId);
  const productId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, current.schoolId);
  checks.throwIfAny();
  return { ...(given(input, ['schoolProductId']) as { title?: string; description?: string }), ...(productId ? { schoolProductId: productId } : {}) };
}

@Resolver(() => SchoolProductTopic)
export class SchoolProductTopicResolver extends resourceResolver({
  type: SchoolProductTopic,
  byId: topicById,
  parent: { arg: 'schoolProductId', type: 'SchoolProduct', byId: schoolProductById, column: 'schoolProductId', inList: true },
  columns: (tx, input: SchoolProductTopicInput, { current }) => topicColumns(tx, input, current),
  descriptions: {
    list: 'The topics of a school product.',
    create: 'Adds a topic to a school product (the argument names the product).',
    update: 'Updates a topic; a schoolProductId moves it to another product of the school.',
  },
}) {}
