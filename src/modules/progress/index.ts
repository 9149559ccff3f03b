import { AUTHORS, PUBLIC, SELLERS, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { CertificatePrintResolver } from './certificate.resolver.js';
import { gradingEventCatalog } from './grading.events.js';
import { GradingResolver } from './grading.resolver.js';
import { gradingRoutes } from './grading.routes.js';
import { progressEventCatalog } from './progress.events.js';
import { EnrollmentProgressResolver, ProgressResolver } from './progress.resolver.js';
import { progressRoutes } from './progress.routes.js';

export const progressModule = defineModule({
  name: 'progress',
  resolvers: [ProgressResolver, EnrollmentProgressResolver, CertificatePrintResolver, GradingResolver],
  routes: [...progressRoutes, ...gradingRoutes],
  rules: {
    operations: {
      // Staff read it; the managers and integrations write it, a student its own (through its own
      // enrollment). Anyone verifies a certificate by its code.
      progress: {
        'Query.lessonProgresses': STAFF_AND_OWN,
        'Query.activityAttempts': STAFF_AND_OWN,
        'Mutation.recordLessonProgress': { ...SELLERS, student: 'own' },
        'Mutation.submitActivityAttempt': { ...SELLERS, student: 'own' },
        'Query.certificate': PUBLIC,
        'Query.printableCertificate': PUBLIC,
        // Grading by hand: the teaching staff grade and read the queue; a student reads its own attempt (grades and comments).
        'Query.activityAttempt': STAFF_AND_OWN,
        'Query.attemptsToGrade': AUTHORS,
        'Mutation.gradeAttempt': AUTHORS,
      },
    },
  },
  errors: { name: 'Progress', nodes: ['LessonProgress', 'ActivityAttempt'], codes: ['too_many_attempts', 'duplicate', 'auto_graded'] },
  events: { ...progressEventCatalog, ...gradingEventCatalog },
});
