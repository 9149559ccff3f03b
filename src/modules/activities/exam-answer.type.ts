import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@Timestamped()
@ObjectType({ description: "A student's attempt at an activity: the exam question answers hang from it." })
export class ExamAnswer extends SchoolRecord {
  @Field(() => ID) activityId!: number;
  // studentId (the row's user_id) is a field resolver of ExamAnswerResolver.
  @Field(() => ID, { nullable: true, description: 'The enrollment the attempt was made in, when given.' }) enrollmentId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The grade given (0 or more).' }) grade!: number | null;
  @Field(() => Date, { nullable: true, description: 'When the student handed the attempt in.' }) submittedAt!: Date | null;
}

@Timestamped()
@ObjectType({
  description:
    'The answer to one question within an attempt: a chosen option and/or a text. For a multiple-choice question `correct` is the chosen option\'s correctness; otherwise null (not graded automatically).',
})
export class ExamQuestionAnswer extends SchoolRecord {
  @Field(() => ID) examQuestionId!: number;
  @Field(() => ID) examAnswerId!: number;
  @Field(() => ID, { nullable: true }) examQuestionOptionId!: number | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Computed from the chosen option of a multiple-choice question.' })
  correct!: boolean | null;
}

export const ExamAnswerConnection = connectionType(ExamAnswer);
export const ExamQuestionAnswerConnection = connectionType(ExamQuestionAnswer);

@InputType({ description: 'A new attempt. A student credential makes attempts for itself only (studentId defaults to it).' })
@RequiredFields('activityId', 'studentId')
export class CreateExamAnswerInput {
  @Field(() => ID, { nullable: true, description: 'Required: an activity of the school.' }) activityId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Required (but for a student credential): a student of the school.' })
  studentId?: string | null;
  @Field(() => ID, { nullable: true, description: "An enrollment of that student." }) enrollmentId?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more; staff only.' }) grade?: number | null;
  @Field(() => Date, { nullable: true }) submittedAt?: Date | null;
}

@InputType({ description: 'The activity and the student of an attempt do not change.' })
export class UpdateExamAnswerInput {
  @Field(() => ID, { nullable: true, description: "An enrollment of the attempt's student." }) enrollmentId?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more; staff only.' }) grade?: number | null;
  @Field(() => Date, { nullable: true }) submittedAt?: Date | null;
}

@InputType({ description: 'Create and update take the same fields; examAnswerId is required on create.' })
@RequiredFields('examAnswerId')
export class ExamQuestionAnswerInput {
  @Field(() => ID, { nullable: true, description: "An attempt (ExamAnswer) at the question's activity." }) examAnswerId?: string | null;
  @Field(() => ID, { nullable: true, description: 'An option of the question.' }) examQuestionOptionId?: string | null;
  @Field(() => String, { nullable: true, description: 'The written answer (essay questions).' }) text?: string | null;
}

@ArgsType()
export class ExamAnswersArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) activityId?: string | null;
  @Field(() => ID, { nullable: true }) studentId?: string | null;
  @Field(() => ID, { nullable: true }) enrollmentId?: string | null;
}

@ArgsType()
export class ExamQuestionAnswersArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) examAnswerId?: string | null;
}
