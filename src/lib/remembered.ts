/** A remembered function of a string, and how many values it holds (tests: its memory stays bounded). */
export type Remembered<T> = ((key: string) => T) & { readonly size: number };

/**
 * `compute`, remembered by its string argument in a map of at most `max` entries, emptied whole when
 * full: for what a request needs of a value clients send again and again (a credential, an address,
 * an Accept header), where a full map is rare and starting over is cheap.
 */
export function remembered<T>(max: number, compute: (key: string) => T): Remembered<T> {
  const values = new Map<string, T>();
  const lookup = (key: string): T => {
    let value = values.get(key);
    if (value === undefined && !values.has(key)) {
      value = compute(key);
      if (values.size >= max) values.clear();
      values.set(key, value);
    }
    return value as T;
  };
  return Object.defineProperty(lookup, 'size', { get: () => values.size }) as Remembered<T>;
}
