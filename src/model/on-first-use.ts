/**
 * An object made on first use: `make` runs when a property other than those of `ready` is first read, and every
 * later read goes to what it made (methods bound to it). Runtime-neutral (no `node:` import).
 */
export function madeOnFirstUse<T extends object>(make: () => T, ready: Partial<T> = {}): T {
  let made: T | undefined;
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => {
      if (Object.hasOwn(ready, key)) return Reflect.get(ready, key) as unknown;
      const target = (made ??= make());
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
