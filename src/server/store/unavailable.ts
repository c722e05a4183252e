/**
 * Whether a store failed because its database does not answer now (a PostgreSQL server down or
 * restarting, its connections cut or exhausted, a pool that could not connect in time; SQLite
 * locked by another process past its timeout), rather than because of the request: such a
 * failure is a 503 that a client may try again, not a 500.
 */
export function storeUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Node's socket errors, PostgreSQL's connection exceptions (class 08), shutdowns (57P0x),
    // too many connections (53300), and SQLite's busy and locked.
    if (
      /^(E(CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE|AI_AGAIN)|08...|57P0[1-3]|53300|SQLITE_(BUSY|LOCKED))/.test(
        code,
      )
    ) {
      return true;
    }
  }
  // node-postgres says these in words only.
  return /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout)/.test(
    error.message,
  );
}
