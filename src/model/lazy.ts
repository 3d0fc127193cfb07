/**
 * Values built on first use, then kept. The zod schemas are built this way, so that importing a module that declares
 * them builds none: the CLI answers its first request without loading zod (test/cli/cli-start.test.ts).
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
