import { byIdLoader } from '../../graphql/loaders.js';
import { media } from './media.table.js';

export const mediaById = byIdLoader('media.byId', media);
