/** camelCase ↔ snake_case, as REST names fields and GraphQL does. */
export const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-zA-Z])(\d)/g, '$1_$2')
    .toLowerCase();
export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A UserError / input path as REST clients see it: `invoices_attributes[0].payments_attributes[1].status`. */
export function restFieldName(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number' || /^\d+$/.test(part)) out += `[${part}]`;
    else out += (out ? '.' : '') + snake(part);
  }
  return out || 'base';
}
