import 'reflect-metadata';
import { Extensions, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolOwned, SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: "A student's progress in one lesson through one enrollment." })
export class LessonProgress extends SchoolRecord {
  @Field(() => ID) enrollmentId!: number;
  @Field(() => ID) studentId!: number;
  @Field(() => ID) lessonId!: number;
  @Field(() => Date, { description: 'The first progress write for the lesson.' }) startedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the lesson was first completed (never cleared).' }) completedAt!: Date | null;
  @Field(() => Int, { nullable: true, description: "Seconds into the lesson's media where the student stopped." }) lastPosition!: number | null;
  @Field(() => Int, { description: 'Seconds spent in the lesson (the highest total reported).' }) timeSpent!: number;
}

@ObjectType({ description: 'One answer of an attempt: whether it was right, or, for an open answer, its grade by hand.' })
export class AttemptAnswer {
  @Field(() => ID) examQuestionId!: number;
  @Field(() => ID, { nullable: true }) examQuestionOptionId!: number | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Null for a question with no correct option (an essay).' }) correct!: boolean | null;
  @Field(() => Float, { nullable: true, description: 'An open answer graded by hand (gradeAttempt): the points given; null until graded.' }) points!: number | null;
  @Field(() => Float, { nullable: true, description: "An open answer graded by hand: the question's points (1 when it has none)." }) maxPoints!: number | null;
  @Field(() => String, { nullable: true, description: "An open answer graded by hand: the grader's comment." }) comment!: string | null;
}

@ObjectType({ description: "A student's submitted attempt at an activity (exam), scored where its questions have correct options." })
export class ActivityAttempt extends SchoolOwned {
  @Field(() => ID) enrollmentId!: number;
  @Field(() => ID) studentId!: number;
  @Field(() => ID) activityId!: number;
  @Field(() => String, { nullable: true, description: "The client's idempotency key: the same key again answers this attempt." }) key!: string | null;
  @Extensions({ rest: 'embed' })
  @Field(() => [AttemptAnswer]) answers!: AttemptAnswer[];
  @Field(() => Int, { description: 'Gradable questions with full credit: answered right, or given full points by hand.' }) correctCount!: number;
  @Field(() => Int, { description: 'Gradable questions: those with correct options, and open answers once graded by hand.' }) gradableCount!: number;
  @Field(() => Int, { nullable: true, description: 'Percent of the credit of the gradable questions, each counting one (grading.score.ts); null when none is gradable.' }) score!: number | null;
  @Field(() => Boolean, { description: "Score at least the exam lesson's minGrade (percent), or nothing to grade: the activity counts as completed." })
  passed!: boolean;
  @Field(() => Date) submittedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When staff graded its last open answer by hand (gradeAttempt); null while one awaits grading.' }) gradedAt!: Date | null;
  @Field(() => ID, { nullable: true, description: 'Who graded it last (null for a platform credential).' }) gradedById!: number | null;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType({ description: 'A certificate as anyone may verify it by its code: nothing but the name, the product and the date.' })
export class CertificateVerification {
  @Field(() => String) code!: string;
  @Field(() => String) studentName!: string;
  @Field(() => String) productTitle!: string;
  @Field(() => Date) issuedAt!: Date;
}

export const LessonProgressConnection = connectionType(LessonProgress);
export const ActivityAttemptConnection = connectionType(ActivityAttempt);
