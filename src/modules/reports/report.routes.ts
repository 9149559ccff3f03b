import { param, type Route } from '../../rest/route-table.js';

/** A report's query parameters: the period, the school (the platform's choice) and, for bucketed reports, the interval. */
const period = { from: param('from'), to: param('to'), schoolId: param('school_id') };
const report = (name: string, field: string, bucketed: boolean, summary: string): Route => ({
  method: 'GET',
  path: `/reports/${name}`,
  field,
  reply: 'show',
  args: bucketed ? { ...period, interval: param('interval') } : period,
  operationId: field,
  summary,
});

export const reportRoutes: Route[] = [
  report('revenue', 'revenueReport', true, 'Revenue by day, week or month and by product, in cents'),
  report('enrollments', 'enrollmentsReport', true, 'Enrollments by day, week or month, by status and product'),
  report('completion', 'completionReport', false, 'Completion rate and average progress per product and course'),
  report('active_students', 'activeStudentsReport', true, 'Students active by day, week or month'),
  report('funnel', 'funnelReport', false, 'The funnel of orders: paid, enrolled, completed'),
];
