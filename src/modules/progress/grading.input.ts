import 'reflect-metadata';
import { ArgsType, Field, Float, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';

@InputType({ description: "The grade of one open answer of an attempt: the question it answers, the points (0 up to the question's points) and a comment." })
export class AnswerGradeInput {
  @Field(() => ID, { nullable: true, description: 'The question the open answer answers (an answer of the attempt).' }) examQuestionId?: string | null;
  @Field(() => Float, { nullable: true, description: "Points given: 0 up to the question's points (1 when it has none)." }) points?: number | null;
  @Field(() => String, { nullable: true, description: 'Shown to the student on its attempt.' }) comment?: string | null;
}

@InputType({ description: "Grades by hand of an attempt's open answers (regrading one replaces its grade)." })
export class AttemptGradingInput {
  @Field(() => [AnswerGradeInput], { nullable: true }) answers?: AnswerGradeInput[] | null;
}

@ArgsType()
export class AttemptsToGradeArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "Attempts at the activities of this course's lessons." }) courseId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Attempts through the enrollments in this school product.' }) schoolProductId?: string | null;
}
