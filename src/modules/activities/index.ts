import { ActivityFieldsResolver, ExamQuestionOptionResolver, ExamQuestionResolver, LessonActivitiesResolver } from './activity-fields.resolver.js';
import { ActivityResolver } from './activity.resolver.js';
import { activityRoutes } from './activity.routes.js';
import { ExamAnswerResolver } from './exam-answer.resolver.js';
import { ExamQuestionAnswerResolver } from './exam-question-answer.resolver.js';

export const activitiesModule = {
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
};
