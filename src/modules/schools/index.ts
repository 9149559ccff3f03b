import { CATALOGUE, MANAGERS, PLATFORM, reads } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { schoolEventCatalog } from './school.events.js';
import { SchoolResolver } from './school.resolver.js';
import { schoolRoutes } from './school.routes.js';
import { SchoolWizardResolver } from './school-wizard.resolver.js';

export const schoolsModule = defineModule({
  name: 'schools',
  resolvers: [SchoolResolver, SchoolWizardResolver],
  routes: schoolRoutes,
  rules: {
    operations: {
      // Every credential reads its own school (secret fields are guarded apart); the platform
      // creates and deletes; the admin edits settings (lifecycle events: see school.state.ts).
      schools: {
        ...reads('school', 'schools', CATALOGUE),
        'Mutation.createSchool': PLATFORM,
        'Mutation.deleteSchool': PLATFORM,
        'Mutation.schoolWizard': PLATFORM,
        'Mutation.updateSchool': { ...MANAGERS, gate: 'lifecycle' },
      },
    },
    fields: { 'School.crmToken': 'secret', 'School.videoAccessToken': 'secret', 'School.videoKey': 'secret' },
  },
  errors: { name: 'School', nodes: ['School'], payloads: ['SchoolWizardPayload'], codes: ['forbidden', 'exclusion', 'invalid_transition', 'too_short'] },
  events: schoolEventCatalog,
});
