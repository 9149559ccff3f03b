import type { Route } from '../../rest/route-table.js';
import { SchoolProductEnrollmentsResolver, StudentEnrollmentsResolver } from './enrollment-relations.resolver.js';
import { EnrollmentRelatedResolver, EnrollmentResolver } from './enrollment.resolver.js';
import { enrollmentRoutes } from './enrollment.routes.js';
import { RegistrationResolver } from './registration.resolver.js';

export const enrollmentsModule = {
  resolvers: [EnrollmentResolver, EnrollmentRelatedResolver, RegistrationResolver, StudentEnrollmentsResolver, SchoolProductEnrollmentsResolver] as Function[],
  routes: enrollmentRoutes as Route[],
};
