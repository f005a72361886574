import { customType } from 'drizzle-orm/pg-core';

/** PostgreSQL bytea as a Node Buffer (PGlite and postgres.js both hand back bytes). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
