import { AUTHORS, ENROLLERS, resource, STAFF_AND_OWN, STAFF_READ, reads } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ActivityFieldsResolver, ExamQuestionOptionResolver, ExamQuestionResolver, LessonActivitiesResolver } from './activity-fields.resolver.js';
import { ActivityResolver } from './activity.resolver.js';
import { activityRoutes } from './activity.routes.js';
import { ExamAnswerResolver } from './exam-answer.resolver.js';
import { ExamQuestionAnswerResolver } from './exam-question-answer.resolver.js';

export const activitiesModule = defineModule({
  name: 'activities',
  resolvers: [
    ActivityResolver,
    ActivityFieldsResolver,
    LessonActivitiesResolver,
    ExamQuestionResolver,
    ExamQuestionOptionResolver,
    ExamAnswerResolver,
    ExamQuestionAnswerResolver,
  ],
  routes: activityRoutes,
  rules: {
    operations: {
      // Released content: a student reads it only through an active enrollment of its own.
      content: { ...resource('activity', 'activities', STAFF_AND_OWN, AUTHORS), 'Query.examQuestion': STAFF_READ },
      // A student's own exam answers.
      learning: {
        ...reads('examAnswer', 'examAnswers', STAFF_AND_OWN),
        'Mutation.createExamAnswer': { ...ENROLLERS, student: 'own' },
        'Mutation.updateExamAnswer': { ...ENROLLERS, student: 'own' },
        'Mutation.deleteExamAnswer': AUTHORS,
        ...resource('examQuestionAnswer', 'examQuestionAnswers', STAFF_AND_OWN, { ...ENROLLERS, student: 'own' }),
      },
    },
    // Wherever an option is reached (GraphQL or an embedded REST reply), a student reads its key as null.
    fields: { 'ExamQuestionOption.correct': 'answerKey' },
  },
  errors: { name: 'Activity', nodes: ['Activity', 'ExamAnswer', 'ExamQuestionAnswer'], codes: ['forbidden', 'present', 'too_many_attempts'] },
});
