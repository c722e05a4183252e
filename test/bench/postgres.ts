import { randomBytes } from 'node:crypto';
import pg from 'pg';
import * as clusters from '../postgres-cluster.mjs';

interface Cluster {
  url: string;
}
const { startCluster, stopCluster } = clusters as {
  startCluster(): Promise<Cluster>;
  stopCluster(cluster: Cluster): void;
};

/**
 * A fresh database on a throwaway cluster (test/postgres-cluster.mjs), dropped with the cluster
 * by `drop()`; or, without PostgreSQL installed, the one line that says why there is none.
 */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | string> {
  let cluster: Cluster;
  try {
    cluster = await startCluster();
  } catch (error) {
    return (error as Error).message.split('\n')[0]!;
  }
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
      stopCluster(cluster);
    },
  };
}
