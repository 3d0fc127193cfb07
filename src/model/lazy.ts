/**
 * Values built on first use, then kept: the one lazy-loading helper. The zod schemas are built this way, so that
 * importing a module that declares them builds none, and the CLI loads zod and faker this way, so that it answers its
 * first request without loading either (test/cli/cli-start.test.ts). Runtime-neutral (no `node:` import).
 */

/** `build()` run once, on the first call. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/** A record (of schemas) whose properties are all built on the first read of any of them. */
export function lazyRecord<T extends object>(build: () => T): T {
  const record = lazy(build);
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(record(), key) as unknown,
    has: (_target, key) => Reflect.has(record(), key),
    ownKeys: () => Reflect.ownKeys(record()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(record(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * An object made on first use: `make` runs when a property other than those of `ready` is first read, and every
 * later read goes to what it made (methods bound to it).
 */
export function lazyObject<T extends object>(make: () => T, ready: Partial<T> = {}): T {
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
