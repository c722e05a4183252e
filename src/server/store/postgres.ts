import type { Store } from './types.js';

/** Opens (and migrates) a PostgreSQL store shared by every server instance on `url`. */
export async function openPostgresStore(
  url: string,
  options: { poolSize?: number; log?: (line: string) => void } = {},
): Promise<Store> {
  void url;
  void options;
  throw new Error('the PostgreSQL store is not built yet');
}
