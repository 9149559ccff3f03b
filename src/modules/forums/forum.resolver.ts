import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { ForumInput } from './forum.input.js';
import { forumById, rootSectionsOfForum, sectionsOfForum } from './forum.loaders.js';
import type { ForumRow } from './forum.table.js';
import { Forum, ForumSection } from './forum.type.js';

const ForumBase = resourceResolver({
  type: Forum,
  byId: forumById,
  columns: (_tx, input: ForumInput, { current }) => {
    new Checks().present(!current, 'title', input.title).throwIfAny();
    return input.title === undefined ? {} : { title: input.title!.trim() };
  },
  descriptions: { list: 'The forums of the school.', delete: 'Deletes the forum with its sections, questions and answers.' },
});

@Resolver(() => Forum)
@RelationFields<ForumRow>({
  school: { type: () => School, loader: schoolById, key: 'schoolId' },
  sections: { type: () => [ForumSection], loader: sectionsOfForum, key: 'id', description: 'Every section of the forum, nested ones included, in sequence order.' },
  rootSections: { type: () => [ForumSection], loader: rootSectionsOfForum, key: 'id', description: 'The top-level sections, in sequence order (their children field walks the tree).' },
})
export class ForumResolver extends ForumBase {}
