/**
 * A value kept per database, made on its first use: a process's in-memory state about its database
 * (caches, queues, prepared statements). Tests run several servers in one process, each on a database
 * of its own, so such state is never a module-level singleton. Forgotten with the database object.
 */
export function perDatabase<Key extends object, T>(make: (db: Key) => T): (db: Key) => T {
  const byDb = new WeakMap<Key, T>();
  return (db) => {
    let value = byDb.get(db);
    if (value === undefined) byDb.set(db, (value = make(db)));
    return value;
  };
}
