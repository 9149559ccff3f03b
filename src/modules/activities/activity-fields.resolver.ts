import 'reflect-metadata';
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { lessonById } from '../courses/course.loaders.js';
import type { LessonRow } from '../courses/course.table.js';
import { Lesson } from '../courses/course.type.js';
import {
  activitiesOfLesson,
  activityById,
  answersOfQuestion,
  assertionsOfOption,
  examQuestionById,
  optionsOfQuestion,
  questionsOfActivity,
} from './activity.loaders.js';
import type { ActivityRow, ExamQuestionOptionRow, ExamQuestionRow } from './activity.table.js';
import { Activity, ExamQuestion, ExamQuestionAssertion, ExamQuestionOption } from './activity.type.js';
import { ExamQuestionAnswer } from './exam-answer.type.js';

@Resolver(() => Activity)
export class ActivityFieldsResolver {
  @FieldResolver(() => [ExamQuestion], { description: 'The questions, by position.' })
  questions(@Root() activity: ActivityRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(questionsOfActivity).load(activity.id);
  }

  @FieldResolver(() => Lesson, { description: 'The lesson that presents the activity.' })
  lesson(@Root() activity: ActivityRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(lessonById).load(activity.examLessonId);
  }
}

@Resolver(() => Lesson)
export class LessonActivitiesResolver {
  @FieldResolver(() => [Activity], { description: 'The activities the lesson presents, in id order.' })
  activities(@Root() lesson: LessonRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(activitiesOfLesson).load(lesson.id);
  }
}

@Resolver(() => ExamQuestion)
export class ExamQuestionResolver {
  @Query(() => ExamQuestion, { description: 'Students read questions through activity(id, enrollmentId) { questions }.' })
  examQuestion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, examQuestionById, parseId(id, 'ExamQuestion'), 'ExamQuestion');
  }

  @FieldResolver(() => Activity)
  activity(@Root() question: ExamQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(activityById).load(question.activityId);
  }

  @FieldResolver(() => [ExamQuestionOption], { description: 'The options, by position.' })
  options(@Root() question: ExamQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(optionsOfQuestion).load(question.id);
  }

  @FieldResolver(() => [ExamQuestionAnswer], { description: "The answers given to the question (a student credential: its own)." })
  answers(@Root() question: ExamQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(answersOfQuestion).load(question.id);
  }
}

@Resolver(() => ExamQuestionOption)
export class ExamQuestionOptionResolver {
  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'Whether a multiple-choice option is correct; null for a student credential (the key is not shown to those taking the exam).',
  })
  correct(@Root() option: ExamQuestionOptionRow, @Ctx() ctx: Context): boolean | null {
    return ownStudentId(ctx) === null ? option.correct : null;
  }

  @FieldResolver(() => ExamQuestionAssertion, { nullable: true, description: 'Associative options: the first assertion.' })
  async firstAssertion(@Root() option: ExamQuestionOptionRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(assertionsOfOption).load(option.id)).first;
  }

  @FieldResolver(() => ExamQuestionAssertion, { nullable: true, description: 'Associative options: the second assertion.' })
  async secondAssertion(@Root() option: ExamQuestionOptionRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(assertionsOfOption).load(option.id)).second;
  }
}
