import { pathParam, type Route } from '../../rest/route-table.js';

const path = '/users/:id/personal_data';
const userId = { userId: pathParam('id') };

export const privacyRoutes: Route[] = [
  // The export document itself (JSON), and the erasure's record (200: what was done, or that it was done already).
  { method: 'GET', path, field: 'exportPerson', reply: 'show', args: userId, operationId: 'exportPerson', summary: 'Export what the school holds about a person' },
  { method: 'DELETE', path, field: 'erasePerson', reply: 'action', args: userId },
];
