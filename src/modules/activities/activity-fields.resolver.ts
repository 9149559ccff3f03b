import 'reflect-metadata';
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { RelationFields } from '../../graphql/relations.js';
import { contentWithheld } from '../content/content-view.js';
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
@RelationFields<ActivityRow>({
  // Embedded in REST replies so a REST client can answer the exam (the answer key reads null for students: index.ts' field rules).
  questions: { type: () => [ExamQuestion], loader: questionsOfActivity, key: 'id', description: 'The questions, by position.', embed: true },
  lesson: { type: () => Lesson, loader: lessonById, key: 'examLessonId', description: 'The lesson that presents the activity.' },
})
export class ActivityFieldsResolver {}

@Resolver(() => Lesson)
export class LessonActivitiesResolver {
  @FieldResolver(() => [Activity], { description: "The activities the lesson presents, in id order (none to a student while the lesson is locked in its enrollment)." })
  async activities(@Root() lesson: LessonRow, @Ctx() ctx: Context) {
    return contentWithheld(lesson) ? [] : ctx.loaders.get(activitiesOfLesson).load(lesson.id);
  }
}

@Resolver(() => ExamQuestion)
@RelationFields<ExamQuestionRow>({
  activity: { type: () => Activity, loader: activityById, key: 'activityId' },
  options: { type: () => [ExamQuestionOption], loader: optionsOfQuestion, key: 'id', description: 'The options, by position.', embed: true },
  answers: { type: () => [ExamQuestionAnswer], loader: answersOfQuestion, key: 'id', description: 'The answers given to the question (a student credential: its own).' },
})
export class ExamQuestionResolver {
  @Query(() => ExamQuestion, { description: 'Students read questions through activity(id, enrollmentId) { questions }.' })
  examQuestion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, examQuestionById, parseId(id, 'ExamQuestion'), 'ExamQuestion');
  }
}

@Resolver(() => ExamQuestionOption)
export class ExamQuestionOptionResolver {
  @FieldResolver(() => ExamQuestionAssertion, { nullable: true, description: 'Associative options: the first assertion.' })
  async firstAssertion(@Root() option: ExamQuestionOptionRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(assertionsOfOption).load(option.id)).first;
  }

  @FieldResolver(() => ExamQuestionAssertion, { nullable: true, description: 'Associative options: the second assertion.' })
  async secondAssertion(@Root() option: ExamQuestionOptionRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(assertionsOfOption).load(option.id)).second;
  }
}
