import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { authorType } from '../forums/forum-author.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: 'A discussion thread of a school, usually about a lesson.' })
export class CollaborativeDiscussion extends SchoolRecord {
  @Field(() => String) title!: string;
  @Field(() => ID, { nullable: true, description: 'The lesson discussed, a lesson of the school.' }) lessonId!: number | null;
}

@Timestamped()
@ObjectType({ description: 'A comment in a collaborative discussion.' })
export class CollaborativeComment extends SchoolRecord {
  @Field(() => ID) collaborativeDiscussionId!: number;
  @Field(() => ID, { description: 'The author, a user of the school.' }) userId!: number;
  @Field(() => String) text!: string;
}

export const CollaborativeUser = authorType('CollaborativeUser', 'The author of a collaborative comment (a student, collaborator or admin of the school).');

export const CollaborativeDiscussionConnection = connectionType(CollaborativeDiscussion);
export const CollaborativeCommentConnection = connectionType(CollaborativeComment);
