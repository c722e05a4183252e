/** A throwaway PostgreSQL cluster (postgres-cluster.mjs). */
export interface Cluster {
  bin: string;
  dir: string;
  data: string;
  port: number;
  /** The server's options, to start it again as it was. */
  options: string;
  /** As the `postgres` superuser, database `postgres`. */
  url: string;
}
export const INSTALL_HINT: string;
export function findPostgresBin(): string | undefined;
export function startCluster(): Promise<Cluster>;
export function stopCluster(cluster: Cluster): void;
/** Stops the cluster's server, keeping its data. */
export function pauseCluster(cluster: Cluster): void;
/** Starts a paused cluster's server again, on the same port. */
export function resumeCluster(cluster: Cluster): void;
