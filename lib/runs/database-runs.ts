// An MLflow tracking database holding several runs, in a directory of the runs root that is not a
// run of its own (no run.json claims it, no stores, records or metrics.jsonl): each MLflow run is
// listed as a run, id `<dir>.<run name>` (the uuid where the name is missing or shared), named
// `<dir>/<run name>`, reading the database's metrics for that run. The database's runs are read
// once per version of its file and WAL, through a private snapshot (lib/store). Not responsible
// for reading the metrics (lib/trainer) nor for a database a run.json names.
import "server-only";
import path from "node:path";
import {
  cachedOrError,
  existsAt,
  fileState,
  isRegularFile,
  listMlflowRuns,
  mlflowSchemaProblem,
  SQLITE_SNAPSHOT_MAX_BYTES,
  withSqliteSnapshot,
} from "@/lib/store";
import type { RunManifest } from "@/lib/schema";
import { OWN_RUN_FILES } from "./experiments";

/** Where a holder's database is, in this order. */
const DATABASES = ["mlflow.db", path.join("logs", "mlflow.db")];
/** A database of more runs than this is listed in part: a runs root lists runs, not a registry. */
const MAX_LISTED = 200;

export interface DatabaseRun {
  id: string;
  name: string;
  /** run.json fields the run stands for: its name, the MLflow run and the database. */
  manifest: RunManifest;
}

/** An id part from a run name: the characters run ids allow, others as "_". */
const idPart = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^[._-]+/, "");

/** The runs the database of the directory `dir` (named `holder` in the root) stands for; none when it holds fewer than two. */
export async function databaseRunsOf(holder: string, dir: string): Promise<DatabaseRun[]> {
  const marked = await Promise.all(OWN_RUN_FILES.map((m) => existsAt(path.join(dir, m))));
  if (marked.some(Boolean)) return [];
  for (const rel of DATABASES) {
    const file = path.join(dir, rel);
    if (!(await isRegularFile(file))) continue;
    const runs = await mlflowRuns(file);
    if (runs.length < 2) return [];
    const seen = new Map<string, number>();
    for (const r of runs) if (r.name) seen.set(idPart(r.name), (seen.get(idPart(r.name)) ?? 0) + 1);
    return runs.slice(0, MAX_LISTED).map((r) => {
      const part =
        r.name && idPart(r.name) && seen.get(idPart(r.name)) === 1 ? idPart(r.name) : r.uuid;
      const name = r.name ?? r.uuid;
      return {
        id: `${holder}.${part}`,
        name: `${holder}/${name}`,
        manifest: { name: `${holder}/${name}`, mlflow_run: r.uuid, paths: { trainer_logs: rel } },
      };
    });
  }
  return [];
}

/** The database's runs (uuid and name), once per version of the file and its WAL. */
async function mlflowRuns(file: string): Promise<{ uuid: string; name: string | null }[]> {
  const wal = await fileState(`${file}-wal`);
  const read = await cachedOrError(
    `mlflow-runs\n${wal.version}`,
    file,
    () =>
      withSqliteSnapshot(file, SQLITE_SNAPSHOT_MAX_BYTES, (db) =>
        mlflowSchemaProblem(db) === null
          ? listMlflowRuns(db).runs.map((r) => ({ uuid: r.run_uuid, name: r.name }))
          : [],
      ),
    // A list of names, however large the database: weighed as that, not as its bytes.
    () => 4096,
  );
  return read.value ?? [];
}
