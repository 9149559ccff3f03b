import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';

@InputType({ description: 'Progress in a lesson. Every write records that the lesson was started (and counts an opening: see the README).' })
export class LessonProgressInput {
  @Field(() => Boolean, { nullable: true, description: 'true completes the lesson (once; false never clears a completion).' })
  completed?: boolean | null;
  @Field(() => Int, { nullable: true, description: "Seconds into the lesson's media where the student is." })
  lastPosition?: number | null;
  @Field(() => Int, { nullable: true, description: 'Total seconds spent in the lesson so far (a total, not an increment: a repeated report changes nothing).' })
  timeSpent?: number | null;
}

@InputType({ description: 'The answer to one question: a chosen option (one entry per option chosen) or a text.' })
export class AttemptAnswerInput {
  @Field(() => ID, { nullable: true }) examQuestionId?: string | null;
  @Field(() => ID, { nullable: true }) examQuestionOptionId?: string | null;
  @Field(() => String, { nullable: true }) text?: string | null;
}

@InputType({ description: 'A submitted attempt at an activity.' })
export class ActivityAttemptInput {
  @Field(() => [AttemptAnswerInput], { nullable: true }) answers?: AttemptAnswerInput[] | null;
  @Field(() => String, { nullable: true, description: 'An idempotency key: submitting the same key again answers the attempt already recorded.' })
  key?: string | null;
}

@ArgsType()
export class ProgressArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Progress through this enrollment.' }) enrollmentId?: string | null;
  @Field(() => ID, { nullable: true, description: "This student's progress." }) studentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Progress through the enrollments in this school product.' }) schoolProductId?: string | null;
}
