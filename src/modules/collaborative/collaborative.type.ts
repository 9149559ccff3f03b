import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/pagination.js';
import { authorType } from '../forums/forum-author.js';

@ObjectType({ description: 'A discussion thread of a school, usually about a lesson.' })
export class CollaborativeDiscussion {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) title!: string;
  @Field(() => ID, { nullable: true, description: 'The lesson discussed, a lesson of the school.' }) lessonId!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: 'A comment in a collaborative discussion.' })
export class CollaborativeComment {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => ID) collaborativeDiscussionId!: number;
  @Field(() => ID, { description: 'The author, a user of the school.' }) userId!: number;
  @Field(() => String) text!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

export const CollaborativeUser = authorType('CollaborativeUser', 'The author of a collaborative comment (a student, collaborator or admin of the school).');

@ObjectType()
export class CollaborativeDiscussionConnection extends Connection(CollaborativeDiscussion) {}

@ObjectType()
export class CollaborativeCommentConnection extends Connection(CollaborativeComment) {}
