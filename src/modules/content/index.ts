import { defineModule } from '../define-module.js';
import { EnrollmentContentResolver, SchoolProductContentResolver } from './content-relations.resolver.js';

/**
 * The content scope: what a product contains (its courses, directly and through its paths, in order)
 * and what an enrollment releases (the rules, in SQL, are the read model's: src/content/). Its REST rows are
 * the courses module's (`/school_products/:id/courses`, `/enrollments/:id/lessons`, ...).
 */
export const contentModule = defineModule({
  name: 'content',
  resolvers: [SchoolProductContentResolver, EnrollmentContentResolver],
});
