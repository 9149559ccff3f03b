import { activitiesModule } from './activities/index.js';
import { courseClassesModule } from './course-classes/index.js';
import { coursesModule } from './courses/index.js';
import { contentModule } from './content/index.js';
import { collaborativeModule } from './collaborative/index.js';
import { enrollmentsModule } from './enrollments/index.js';
import { forumsModule } from './forums/index.js';
import { ordersModule } from './orders/index.js';
import { pathsModule } from './paths/index.js';
import { schoolProductsModule } from './school-products/index.js';
import { schoolsModule } from './schools/index.js';
import { usersModule } from './users/index.js';
import { messagesModule } from './messages/index.js';
import { notificationsModule } from './notifications/index.js';
import { integrationsModule } from './integrations/index.js';
import { libraryModule } from './library/index.js';
import { mediaModule } from './media/index.js';
import { extraContentsModule } from './extra-contents/index.js';
import { progressModule } from './progress/index.js';
import { eventsModule } from './events/index.js';
import { webhooksModule } from './webhooks/index.js';
import { authTokensModule } from './auth-tokens/index.js';
import { identityModule } from './identity/index.js';
import { ssoModule } from './sso/index.js';
import { privacyModule } from './privacy/index.js';
import { mailModule } from './mail/index.js';
import { searchModule } from './search/index.js';
import { reportsModule } from './reports/index.js';
import type { ModuleDeclaration } from './define-module.js';
import { exportsModule } from './exports/index.js';

/**
 * The service's modules, each its own declaration (src/modules/define-module.ts), assembled by
 * src/service-modules.ts. Their order is the order of the event catalog (the README's table, the
 * `EventName` enum) and, topic by topic, of the README's role matrix. The imports above keep the
 * order type-graphql has always met the modules' classes in: the OpenAPI document's property order
 * follows it.
 */
export const modules: readonly ModuleDeclaration[] = [
  schoolsModule,
  usersModule,
  schoolProductsModule,
  enrollmentsModule,
  progressModule,
  ordersModule,
  coursesModule,
  pathsModule,
  libraryModule,
  activitiesModule,
  mediaModule,
  extraContentsModule,
  courseClassesModule,
  forumsModule,
  messagesModule,
  notificationsModule,
  collaborativeModule,
  integrationsModule,
  authTokensModule,
  eventsModule,
  webhooksModule,
  contentModule,
  identityModule,
  ssoModule,
  privacyModule,
  mailModule,
  searchModule,
  reportsModule,
  exportsModule,
];
