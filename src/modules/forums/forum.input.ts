import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'title is required on create and may not be cleared.' })
@RequiredFields('title')
export class ForumInput {
  @Field(() => String, { nullable: true }) title?: string | null;
}

@InputType({ description: 'title and description are required on create and may not be cleared on update.' })
@RequiredFields('title', 'description')
export class ForumSectionInput {
  @Field(() => ID, {
    nullable: true,
    description: 'On create, the forum of the path or argument wins. On update, another forum of the school moves the section with its subsections (a parent left in the old forum is cleared).',
  })
  forumId?: string | null;
  @Field(() => ID, { nullable: true, description: 'A section of the same forum; null for a top-level section. A section cannot become its own ancestor.' })
  parentForumSectionId?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Order among siblings (0 or more). Omitted on create, or when the parent changes: the next of its parent (max + 1). REST accepts a numeric string ("3"); anything else is a 400.',
  })
  sequence?: number | null;
  @Field(() => String, { nullable: true }) category?: string | null;
}

@ArgsType()
export class ForumSectionsArgs extends ConnectionArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only the top-level sections.' }) rootsOnly?: boolean | null;
}

const SECTION_ALIAS = 'The spec names the section forum_question_id on create and forum_section_id on update and move: both are accepted on every write (forumSectionId wins when both are given).';

/** The fields a question's create and update share (the schema lists an input's fields sorted). */
@InputType()
abstract class ForumQuestionFields {
  @Field(() => ID, { nullable: true, description: SECTION_ALIAS }) forumSectionId?: string | null;
  @Field(() => ID, { nullable: true, description: SECTION_ALIAS }) forumQuestionId?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
}

@InputType({ description: 'title and description are required; the section comes from the path or argument, else from forumSectionId / forumQuestionId.' })
@RequiredFields('title', 'description')
export class CreateForumQuestionInput extends ForumQuestionFields {
  @Field(() => Boolean, { nullable: true, description: 'REST also accepts "true"/"false"/"1"/"0" (the spec types it String).' }) fixed?: boolean | null;
  @Field(() => ID, { nullable: true, description: "The author. Defaults to the credential's user; only a staff credential may name another user of the school." })
  userId?: string | null;
  @Field(() => Date, { nullable: true, description: 'Given: the question keeps this time and its callbacks are skipped (no notification, no event), as for an import.' })
  createdAt?: Date | null;
}

@InputType({ description: 'A changed forumSectionId (or forumQuestionId) moves the question to another section of the same forum.' })
@RequiredFields('title', 'description')
export class UpdateForumQuestionInput extends ForumQuestionFields {
  @Field(() => Boolean, { nullable: true }) fixed?: boolean | null;
  @Field(() => ID, { nullable: true, description: 'Another author: staff credentials only; null leaves the author as it is.' }) userId?: string | null;
}

@InputType({ description: 'The section to move to (forum_question[forum_section_id] in REST; forumQuestionId accepted as its alias).' })
@RequiredFields('forumSectionId')
export class MoveForumQuestionInput {
  @Field(() => ID, { nullable: true }) forumSectionId?: string | null;
  @Field(() => ID, { nullable: true }) forumQuestionId?: string | null;
}

@ArgsType()
export class ForumQuestionsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Questions of this section.' }) forumSectionId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Questions written by this user of the school.' }) userId?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: a collaborator or admin answered the question; false: none did (student answers do not count); absent: all.',
  })
  answeredByAdmin?: boolean | null;
}

@InputType({ description: 'text is required on create and may not be cleared.' })
@RequiredFields('text')
export class ForumAnswerInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => ID, { nullable: true, description: "The author. Defaults to the credential's user; only a staff credential may name another user of the school." })
  userId?: string | null;
}
