import type { Route } from '../rest/route-table.js';
import { enrollmentsModule } from './enrollments/index.js';
import { ordersModule } from './orders/index.js';
import { schoolProductsModule } from './school-products/index.js';
import { schoolsModule } from './schools/index.js';
import { usersModule } from './users/index.js';

/** What each domain contributes: resolvers for the schema, rows for the REST table. */
const modules = [schoolsModule, usersModule, schoolProductsModule, enrollmentsModule, ordersModule];

export const resolvers: Function[] = modules.flatMap((m): Function[] => m.resolvers);
export const routes: Route[] = modules.flatMap((m) => m.routes);
