import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { activityShowComments, examQuestionAssertionSide, examQuestionType } from './activity.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

/**
 * The kinds of activity (the spec's free `type` string, decided here): an `exam` (graded, counts
 * towards the lesson's min grade), a `quiz` (graded practice), a `survey` (opinions: no right
 * answer) and an `assignment` (open work, usually essay questions). The column is text so the list
 * can grow; the value is checked on write (422 `inclusion`) and stored lower-cased, so the Rails
 * class-name spelling (`Exam`) is accepted too.
 */
export const ACTIVITY_TYPES = ['exam', 'quiz', 'survey', 'assignment'] as const;

export const ActivityShowCommentsEnum = graphqlEnum(
  'ActivityShowComments',
  activityShowComments.enumValues,
  'When a student sees the comments of the questions: always, or once the answer is approved.',
);
export const ExamQuestionTypeEnum = graphqlEnum(
  'ExamQuestionType',
  examQuestionType.enumValues,
  'multiple_choice: options with a title, at least one correct; associative: options pairing a first and a second assertion; essay: a free text answer, no options.',
);
export const ExamQuestionAssertionSideEnum = graphqlEnum('ExamQuestionAssertionSide', examQuestionAssertionSide.enumValues);

@Timestamped()
@ObjectType({ description: 'An activity (exam, quiz, survey or assignment) presented by a lesson, with its questions.' })
export class Activity extends SchoolRecord {
  @Field(() => String) title!: string;
  @Field(() => String, { description: `One of ${ACTIVITY_TYPES.join(', ')}.` }) type!: string;
  @Field(() => ActivityShowCommentsEnum) showComments!: string;
  @Field(() => ID, { description: 'The lesson that presents the activity.' }) examLessonId!: number;
  @Field(() => Int, { nullable: true, description: 'Minutes a student has for one attempt (1 or more).' }) timeLimit!: number | null;
  @Field(() => Int, { nullable: true, description: 'Minutes to wait before another attempt (0 or more).' }) retryTime!: number | null;
  @Field(() => Int, { nullable: true, description: 'Attempts (exam answers) a student may make (1 or more); none: unlimited.' })
  maxAttempts!: number | null;
}

@Timestamped()
@ObjectType({ description: 'A question of an activity.' })
export class ExamQuestion extends SchoolRecord {
  @Field(() => ID) activityId!: number;
  @Field(() => Int, { description: 'Order within the activity.' }) position!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => ExamQuestionTypeEnum) type!: string;
  @Field(() => String, { nullable: true, description: 'Shown to the student as showComments says.' }) comment!: string | null;
  @Field(() => Int, { nullable: true, description: 'Points the question is worth.' }) point!: number | null;
}

@Timestamped()
@ObjectType({ description: 'An option of a question: a choice (title, correct) or, for an associative question, a pair of assertions.' })
export class ExamQuestionOption extends SchoolRecord {
  @Field(() => ID) examQuestionId!: number;
  @Field(() => Int) position!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether a multiple-choice option is correct; null for a student credential (the answer key: not shown to those taking the exam).',
  })
  correct!: boolean | null;
}

@ObjectType({ description: 'One side of an associative option.' })
export class ExamQuestionAssertion {
  @Field(() => ID) id!: number;
  @Field(() => ID) optionId!: number;
  @Field(() => ExamQuestionAssertionSideEnum) side!: string;
  @Field(() => String, { nullable: true }) text!: string | null;
}

export const ActivityConnection = connectionType(Activity);
