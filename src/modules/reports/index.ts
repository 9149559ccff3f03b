import { MANAGERS } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ReportRelationResolvers, ReportResolver } from './report.resolver.js';
import { reportRoutes } from './report.routes.js';

export const reportsModule = defineModule({
  name: 'reports',
  resolvers: [ReportResolver, ...ReportRelationResolvers],
  routes: reportRoutes,
  rules: {
    operations: {
      // A school's figures are its admin's (the platform: every school's); collaborators teach, students learn, apps integrate.
      commerce: {
        'Query.revenueReport': MANAGERS,
        'Query.enrollmentsReport': MANAGERS,
        'Query.completionReport': MANAGERS,
        'Query.activeStudentsReport': MANAGERS,
        'Query.funnelReport': MANAGERS,
      },
    },
  },
});
