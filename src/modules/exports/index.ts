import { MANAGERS } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ExportResolver } from './export.resolver.js';
import { exportRoutes } from './export.routes.js';

export { startExportWorker, type ExportWorkerOptions } from './export.job.js';

/**
 * CSV exports of a school's enrollments, orders and progress: streamed from a cursor at
 * GET /exports/<kind>.csv, or written by a background job (startExport) for a large school.
 */
export const exportsModule = defineModule({
  name: 'exports',
  resolvers: [ExportResolver],
  routes: exportRoutes,
  rules: {
    operations: {
      // A school's people in bulk (names, e-mails) and its sales: the platform and the school's admin only.
      // A collaborator teaches: it still reads the paged lists it may, not the whole school in one file.
      people: {
        'Query.exportFile': MANAGERS,
        'Mutation.startExport': MANAGERS,
        'Query.export': MANAGERS,
      },
    },
  },
  errors: { name: 'Export', nodes: ['Export'], codes: [] },
});
