// The connection pool's numbers (ADR 048), apart from server/db/index.ts so that the env schema can name them as
// defaults without loading a database driver.

/** PostgreSQL clients per process (DATABASE_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 20;
/** How long a request waits for a free client of a busy pool before it is shed with a 503 (DATABASE_POOL_WAIT_MS). */
export const DEFAULT_POOL_WAIT_MS = 2000;
/** How long opening one new PostgreSQL connection may take before the server counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5000;
