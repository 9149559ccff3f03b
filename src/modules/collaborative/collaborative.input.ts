import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'title is required on create and may not be cleared; lessonId names a lesson of the school (null detaches it).' })
@RequiredFields('title')
export class CollaborativeDiscussionInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => ID, { nullable: true }) lessonId?: string | null;
}

@ArgsType()
export class CollaborativeDiscussionsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Discussions of this lesson.' }) lessonId?: string | null;
}

@InputType({
  description:
    'text and userId are required on create and may not be cleared. userId is a user of the school; a student credential may name only its own user.',
})
@RequiredFields('text', 'userId')
export class CollaborativeCommentInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => ID, { nullable: true }) userId?: string | null;
}

@ArgsType()
export class CollaborativeCommentsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Comments of this discussion.' }) collaborativeDiscussionId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Comments written by this user.' }) userId?: string | null;
}
