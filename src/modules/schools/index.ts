import { SchoolResolver } from './school.resolver.js';
import { schoolRoutes } from './school.routes.js';
import { SchoolWizardResolver } from './school-wizard.resolver.js';

export const schoolsModule = {
  resolvers: [SchoolResolver, SchoolWizardResolver],
  routes: schoolRoutes,
};
