import { z } from 'zod';
import { event, id, nullableId } from '../events/catalog.js';

/** The events of forums' questions and answers (the catalog: events/catalog.ts). */
export const forumEventCatalog = {
  'forum_question.created': event({
    version: 1,
    subject: 'ForumQuestion',
    emittedBy: ['createForumQuestion'],
    description: 'A forum question was asked.',
    payload: z.object({ id, forum_section_id: id, user_id: nullableId, title: z.string() }),
  }),
  'forum_question.answered': event({
    version: 1,
    subject: 'ForumQuestion',
    emittedBy: ['createForumAnswer'],
    description: 'A collaborator or an admin answered a question no staff had answered yet (what answeredByAdmin reads).',
    payload: z.object({ id, forum_answer_id: id, user_id: nullableId }),
  }),
  'forum_answer.created': event({
    version: 1,
    subject: 'ForumAnswer',
    emittedBy: ['createForumAnswer'],
    description: 'A forum question got an answer.',
    payload: z.object({ id, forum_question_id: id, user_id: nullableId }),
  }),
};

type ForumEventCatalog = typeof forumEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends ForumEventCatalog {}
}
