// The records index's baseline: DuckDB reading the same rollouts.jsonl into a table of its own
// (`CREATE TABLE … AS SELECT * FROM read_ndjson_auto(…)`), in memory, on every core it finds, in
// this process. Its json reader is built into the package's binary: nothing is downloaded
// (extension autoloading and autoinstalling are off, so a missing one fails here rather than
// fetching). The best of `runs`, so a first run's page faults are not DuckDB's time.
import { DuckDBInstance } from "@duckdb/node-api";

export interface DuckDbRead {
  ms: number;
  rows: number;
  threads: string;
}

export async function duckDbReadNdjson(file: string, runs = 3): Promise<DuckDbRead> {
  let best: DuckDbRead | null = null;
  for (let k = 0; k < runs; k++) {
    const db = await DuckDBInstance.create(":memory:", {
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
    });
    const c = await db.connect();
    try {
      const quoted = `'${file.replace(/'/g, "''")}'`;
      const t0 = performance.now();
      await c.run(`CREATE TABLE t AS SELECT * FROM read_ndjson_auto(${quoted})`);
      const ms = performance.now() - t0;
      const rows = Number((await c.runAndReadAll("SELECT count(*) FROM t")).getRows()[0]?.[0]);
      const threads = String(
        (await c.runAndReadAll("SELECT current_setting('threads')")).getRows()[0]?.[0],
      );
      if (!best || ms < best.ms) best = { ms, rows, threads };
    } finally {
      c.closeSync();
      db.closeSync();
    }
  }
  return best as DuckDbRead;
}
