import { byIdLoader } from '../../graphql/loaders.js';
import { exportFiles } from './export.table.js';

export const exportById = byIdLoader('export.byId', exportFiles);
