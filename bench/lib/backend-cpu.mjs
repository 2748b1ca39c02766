// The CPU time of the PostgreSQL backends serving one application (issue 32): a view's server
// time on PostgreSQL is the server process's CPU plus what its queries cost the database's
// backends, which the server process's own count does not see. The backends are found by their
// application_name (the bench sets it in the server's database URL) and read from /proc (Linux,
// the database on this machine).
import pg from 'pg';
import { processCpuMs } from './process-cpu.mjs';

/** A backend's CPU so far, in ms; 0 once it is gone (a pool may close a connection between calls). */
function backendCpuMs(pid) {
  try {
    return processCpuMs(pid);
  } catch {
    return 0;
  }
}

/**
 * A probe of the backends named `application`: cpuMs() answers their CPU so far (ms). It lists
 * them anew at each call, so a pool that opens more connections is followed; a backend that ended
 * between two calls loses its share (the server's pool keeps its connections).
 */
export async function backendCpuProbe(url, application) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async cpuMs() {
      const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [
        application,
      ]);
      return rows.reduce((sum, row) => sum + backendCpuMs(row.pid), 0);
    },
    close: () => client.end(),
  };
}
