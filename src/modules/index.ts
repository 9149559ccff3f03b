import type { Route } from '../rest/route-table.js';
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

/** What each domain contributes: resolvers for the schema, rows for the REST table. */
const modules = [schoolsModule, usersModule, schoolProductsModule, coursesModule, contentModule, enrollmentsModule, ordersModule, pathsModule, courseClassesModule, activitiesModule, forumsModule, collaborativeModule, messagesModule, notificationsModule, integrationsModule, libraryModule, mediaModule, extraContentsModule, progressModule, eventsModule, authTokensModule, webhooksModule];

export const resolvers: Function[] = modules.flatMap((m): Function[] => m.resolvers);
export const routes: Route[] = modules.flatMap((m) => m.routes);
