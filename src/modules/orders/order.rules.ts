import { AppError } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';

/** A filter argument that must hold an id: anything else is a malformed request. */
export function filterId(value: string | null | undefined, field: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const id = idOrNull(value);
  if (id === null) throw new AppError('bad_request', `${field} is not an id`, [field]);
  return id;
}
