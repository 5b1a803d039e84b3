import type { Db } from './database';

const byConnection = new WeakMap<Db, Map<(db: Db) => unknown, unknown>>();

/**
 * The statements `build` prepares, prepared once per connection and kept as long as it lives: every
 * query module asks `prepared(db, prepare)` instead of keeping a cache of its own. `build` is the key,
 * so pass the same function each time (a module-level one), never a new closure.
 */
export function prepared<T>(db: Db, build: (db: Db) => T): T {
  let built = byConnection.get(db);
  if (!built) byConnection.set(db, (built = new Map()));
  if (!built.has(build)) built.set(build, build(db));
  return built.get(build) as T;
}
