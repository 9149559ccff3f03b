/** REST's field names live with the errors that carry them (src/errors/field-names.ts). */
export { camel, restFieldName, snake } from '../errors/field-names.js';
