import { type ErrorCode, type UserError, UserErrors, userError } from './errors.js';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Collects UserErrors for one input (fields in the GraphQL input's camelCase names). `nested`
 * gives a collector for a child object whose paths carry the prefix (`invoicesAttributes.0.status`).
 */
export class Checks {
  constructor(
    readonly errors: UserError[] = [],
    private readonly prefix: string[] = [],
  ) {}

  nested(...path: (string | number)[]): Checks {
    return new Checks(this.errors, [...this.prefix, ...path.map(String)]);
  }

  add(field: string | null, code: ErrorCode, message?: string, count?: number): this {
    this.errors.push(userError(field ? [...this.prefix, field] : this.prefix, code, message, count));
    return this;
  }

  /** `value` must be present (on create: not undefined; on update: not null when given). */
  required(field: string, value: unknown): this {
    return isBlank(value) ? this.add(field, 'blank') : this;
  }

  /** On update, a given field must not be cleared. */
  notCleared(field: string, value: unknown): this {
    return value !== undefined && isBlank(value) ? this.add(field, 'blank') : this;
  }

  /** Required on create, not cleared on update: the usual rule of a field that always holds a value. */
  present(creating: boolean, field: string, value: unknown): this {
    return creating ? this.required(field, value) : this.notCleared(field, value);
  }

  requiredWhen(condition: boolean, field: string, value: unknown, why: string): this {
    return condition && isBlank(value) ? this.add(field, 'blank', `can't be blank ${why}`) : this;
  }

  range(field: string, value: number | null | undefined, min: number, max?: number): this {
    if (value === null || value === undefined) return this;
    if (value < min) return this.add(field, 'greater_than_or_equal_to', undefined, min);
    if (max !== undefined && value > max) return this.add(field, 'less_than_or_equal_to', undefined, max);
    return this;
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** Stops the mutation (and rolls back its transaction) when anything was found. */
  throwIfAny(): void {
    if (!this.ok) throw new UserErrors(this.errors);
  }
}

export { isBlank };

/** Whether `value` is an absolute http or https address with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}
