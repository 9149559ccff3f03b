import { ENROLLERS, reads, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { SchoolProductEnrollmentsResolver, StudentEnrollmentsResolver } from './enrollment-relations.resolver.js';
import { enrollmentEventCatalog } from './enrollment.events.js';
import { EnrollmentRelatedResolver, EnrollmentResolver } from './enrollment.resolver.js';
import { enrollmentRoutes } from './enrollment.routes.js';
import { RegistrationResolver } from './registration.resolver.js';
import { StudentBatchResolver } from './student-batch.resolver.js';

export const enrollmentsModule = defineModule({
  name: 'enrollments',
  resolvers: [EnrollmentResolver, EnrollmentRelatedResolver, RegistrationResolver, StudentEnrollmentsResolver, SchoolProductEnrollmentsResolver, StudentBatchResolver],
  routes: enrollmentRoutes,
  rules: {
    operations: {
      // A student's own learning: its enrollments and registrations.
      learning: {
        ...reads('enrollment', 'enrollments', STAFF_AND_OWN),
        'Query.enrollmentStatus': STAFF_AND_OWN,
        'Mutation.createEnrollment': ENROLLERS,
        'Mutation.createEnrollments': ENROLLERS,
        'Mutation.updateEnrollment': ENROLLERS,
        ...reads('registration', 'registrations', STAFF_AND_OWN),
        'Mutation.createRegistration': ENROLLERS,
        // Bulk onboarding: who may create a student (users/user.access.ts) may create many.
        'Mutation.createStudents': ENROLLERS,
      },
    },
  },
  errors: { name: 'Enrollment', nodes: ['Enrollment', 'Registration'], payloads: ['EnrollmentsPayload', 'StudentsPayload'], codes: ['forbidden', 'greater_than', 'too_short', 'duplicate'] },
  events: enrollmentEventCatalog,
});
