import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { ActivityShowCommentsEnum, ExamQuestionTypeEnum } from './activity.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

type ShowComments = 'always' | 'approved';
type QuestionType = 'multiple_choice' | 'associative' | 'essay';

@InputType({ description: 'One assertion of an associative option.' })
export class ExamQuestionAssertionInput {
  @Field(() => String, { nullable: true }) text?: string | null;
}

@InputType({
  description:
    'An option: for a multiple-choice question a title and whether it is correct; for an associative question both assertions.',
})
export class ExamQuestionOptionInput {
  @Field(() => String, { nullable: true, description: 'Required for a multiple-choice option.' }) title?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Multiple choice: whether the option is correct (default false).' })
  correct?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Order within the question; default: the place in the list.' }) position?: number | null;
  @Field(() => ExamQuestionAssertionInput, { nullable: true, description: 'Required for an associative option.' })
  firstAssertionAttributes?: ExamQuestionAssertionInput | null;
  @Field(() => ExamQuestionAssertionInput, { nullable: true, description: 'Required for an associative option.' })
  secondAssertionAttributes?: ExamQuestionAssertionInput | null;
}

@InputType({ description: 'A question of an activity, with its options.' })
export class ExamQuestionInput {
  @Field(() => String, { nullable: true, description: 'Required.' }) title?: string | null;
  @Field(() => ExamQuestionTypeEnum, { nullable: true, description: 'Default multiple_choice.' }) type?: QuestionType | null;
  @Field(() => String, { nullable: true }) comment?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more.' }) point?: number | null;
  @Field(() => Int, { nullable: true, description: 'Order within the activity; default: the place in the list.' }) position?: number | null;
  @Field(() => [ExamQuestionOptionInput], {
    nullable: true,
    description: 'multiple_choice: at least one option, one of them correct; associative: at least one pair; essay: none.',
  })
  optionsAttributes?: ExamQuestionOptionInput[] | null;
}

/**
 * Create and update take the same fields (title, type, showComments and examLessonId required on
 * create, not clearable on update). `examQuestionsAttributes` (REST: the top-level
 * `exam_questions_attributes` key beside `activity`) writes the whole question tree in the
 * activity's transaction. On update, when given, it REPLACES the questions (an empty list removes
 * them); omitted, the questions stay. Questions that students have answered are not replaced: the
 * update is refused (`in_use`) until those answers are deleted.
 */
@InputType()
@RequiredFields('title', 'type', 'showComments', 'examLessonId')
export class ActivityInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true, description: 'exam, quiz, survey or assignment (any letter case).' }) type?: string | null;
  @Field(() => ActivityShowCommentsEnum, { nullable: true }) showComments?: ShowComments | null;
  @Field(() => ID, { nullable: true, description: 'A lesson of the school.' }) examLessonId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Minutes, 1 or more.' }) timeLimit?: number | null;
  @Field(() => Int, { nullable: true, description: 'Minutes, 0 or more.' }) retryTime?: number | null;
  @Field(() => Int, { nullable: true, description: '1 or more.' }) maxAttempts?: number | null;
  @Field(() => [ExamQuestionInput], { nullable: true, description: 'The questions; on update they replace the current ones.' })
  examQuestionsAttributes?: ExamQuestionInput[] | null;
}

@ArgsType()
export class ActivitiesArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "Activities of the course's lessons." }) courseId?: string | null;
  @Field(() => ID, { nullable: true, description: "Activities of the product's lessons." }) schoolProductId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "Activities of the lessons the enrollment's student may see (released ones; none unless the enrollment is active).",
  })
  enrollmentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Activities of one lesson.' }) lessonId?: string | null;
}
