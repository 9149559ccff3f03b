import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: "A school's forum, holding sections of questions (the wizard creates one per school)." })
export class Forum extends SchoolRecord {
  @Field(() => String) title!: string;
}

@Timestamped()
@ObjectType({
  description:
    'A section of a forum. Sections nest (parentForumSectionId, a section of the same forum, never its own ancestor); ' +
    '`sequence` orders siblings and is the next one of its parent when omitted on create.',
})
export class ForumSection extends SchoolRecord {
  @Field(() => ID) forumId!: number;
  @Field(() => ID, { nullable: true, description: 'Null for a top-level section.' }) parentForumSectionId!: number | null;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Int) sequence!: number;
  @Field(() => String, { nullable: true }) category!: string | null;
}

@Timestamped()
@ObjectType({ description: 'A question asked in a forum section.' })
export class ForumQuestion extends SchoolRecord {
  @Field(() => ID) forumSectionId!: number;
  @Field(() => ID, { nullable: true, description: 'The author; null when posted with a credential bound to no user.' }) userId!: number | null;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Boolean, { description: 'Pinned at the top of its section.' }) fixed!: boolean;
}

@Timestamped()
@ObjectType({ description: 'An answer to a forum question.' })
export class ForumAnswer extends SchoolRecord {
  @Field(() => ID) forumQuestionId!: number;
  @Field(() => ID, { nullable: true, description: 'The author; null when posted with a credential bound to no user.' }) userId!: number | null;
  @Field(() => String) text!: string;
}

export const ForumConnection = connectionType(Forum);
export const ForumSectionConnection = connectionType(ForumSection);
export const ForumQuestionConnection = connectionType(ForumQuestion);
export const ForumAnswerConnection = connectionType(ForumAnswer);
