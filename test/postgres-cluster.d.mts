/** A throwaway PostgreSQL cluster (postgres-cluster.mjs). */
export interface Cluster {
  bin: string;
  dir: string;
  data: string;
  port: number;
  /** As the `postgres` superuser, database `postgres`. */
  url: string;
}
export const INSTALL_HINT: string;
export function findPostgresBin(): string | undefined;
export function startCluster(): Promise<Cluster>;
export function stopCluster(cluster: Cluster): void;
