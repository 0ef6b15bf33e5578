// A run's trainer logs from the loggers besides TensorBoard, found the way NeMo-RL lays them out:
// an MLflow tracking database in logs/ (run.json's `mlflow_run` picking one of several, or named
// by a `sqlite:///` URI), a database left in WAL mode by a live trainer (read, no byte changed),
// another program's database passed over, and SwanLab's directory named as not read. Expected
// values are the writer's fixture truth (lib/testing/mlflow-db TWO_GRPO_RUNS).
import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { getRun, listRuns } from "@/lib/runs";
import { eventFileBytes } from "@/lib/testing/event-writer";
import { openMlflowWalWriter, TWO_GRPO_RUNS, writeMlflowDb } from "@/lib/testing/mlflow-db";
import { readRunScalars } from "./run-scalars";
import { runTraining } from "./training-section";

const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-loggers-"));

function run(name: string, manifest?: Record<string, unknown>): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "logs"), { recursive: true });
  if (manifest) writeFileSync(path.join(dir, "run.json"), JSON.stringify(manifest));
  return dir;
}

const rewardOf = async (id: string) => {
  const s = await readRunScalars(await getRun(id, root));
  return {
    s,
    points: s.series.find((x) => x.tag === "train/reward")?.points.map((p) => [p.step, p.value]),
  };
};

/** Every file of `dir` with its bytes' hash and its mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const bytes = readFileSync(file);
    out[name] = `${createHash("sha256").update(bytes).digest("hex")} ${statSync(file).mtimeMs}`;
  }
  return out;
}

let live: Database.Database | null = null;
afterAll(() => live?.close());

describe("MLflow tracking databases", () => {
  it("reads the run run.json names from logs/mlflow.db, its params as run facts", async () => {
    writeMlflowDb(
      path.join(run("named", { mlflow_run: "grpo-lr1e-6" }), "logs", "mlflow.db"),
      TWO_GRPO_RUNS,
    );
    const { s, points } = await rewardOf("named");
    expect(points).toEqual([
      [1, 0.25],
      [2, 0.5],
    ]);
    expect(s.series.map((x) => x.tag)).toEqual(["train/loss", "train/reward"]);
    const t = await runTraining(await getRun("named", root));
    const params = t.facts.find((f) => f.kind === "params");
    expect(params?.entries).toEqual([
      { key: "batch_size", value: "64" },
      { key: "lr", value: "1e-06" },
    ]);
    expect(t.loggers).toEqual([
      { path: "mlflow.db", logger: "mlflow", read: true, detail: "a tracking database of 2 runs" },
    ]);
  });

  it("a database of several runs and no mlflow_run reads none, and says how to pick", async () => {
    writeMlflowDb(path.join(run("several"), "logs", "mlflow.db"), TWO_GRPO_RUNS);
    const { s, points } = await rewardOf("several");
    expect(points).toBeUndefined();
    expect(s.notes.join("\n")).toMatch(/mlflow\.db: .*2 runs.*mlflow_run/);
  });

  it("follows a sqlite:/// URI in paths.trainer_logs, the run picked by uuid", async () => {
    const shared = path.join(root, "shared-db");
    mkdirSync(shared);
    writeMlflowDb(path.join(shared, "tracking.db"), TWO_GRPO_RUNS);
    run("by-uri", {
      mlflow_run: "b2".repeat(16),
      paths: { trainer_logs: "sqlite:///../shared-db/tracking.db" },
    });
    const { s, points } = await rewardOf("by-uri");
    expect(points).toEqual([[1, 0.75]]);
    expect(s.trainer_logs).toBe(path.join("..", "shared-db"));
  });

  it("reads a live trainer's WAL rows and changes no byte of its files", async () => {
    const dir = run("live", { mlflow_run: "grpo-lr3e-6" });
    const db = path.join(dir, "logs", "mlflow.db");
    live = openMlflowWalWriter(db, TWO_GRPO_RUNS);
    const before = snapshot(path.join(dir, "logs"));
    expect(Object.keys(before).sort()).toEqual(["mlflow.db", "mlflow.db-shm", "mlflow.db-wal"]);
    const { points } = await rewardOf("live");
    expect(points).toEqual([[1, 0.75]]);
    expect(snapshot(path.join(dir, "logs"))).toEqual(before);
  });

  it("a directory holding a database of several runs, and nothing else, lists each as a run", async () => {
    const registry = path.join(root, "registry");
    mkdirSync(registry);
    writeMlflowDb(path.join(registry, "mlflow.db"), TWO_GRPO_RUNS);
    const ids = (await listRuns(root)).map((r) => [r.id, r.manifest.name]);
    expect(ids).toEqual(
      expect.arrayContaining([
        ["registry.grpo-lr1e-6", "registry/grpo-lr1e-6"],
        ["registry.grpo-lr3e-6", "registry/grpo-lr3e-6"],
      ]),
    );
    expect(ids.map(([id]) => id)).not.toContain("registry");
    expect((await rewardOf("registry.grpo-lr3e-6")).points).toEqual([[1, 0.75]]);
    expect((await rewardOf("registry.grpo-lr1e-6")).points).toEqual([
      [1, 0.25],
      [2, 0.5],
    ]);
    // A run.json claims the directory: then it is one run, its database's runs picked by name.
    writeFileSync(path.join(registry, "run.json"), JSON.stringify({ mlflow_run: "grpo-lr3e-6" }));
    expect((await listRuns(root)).map((r) => r.id)).toContain("registry");
    expect((await rewardOf("registry")).points).toEqual([[1, 0.75]]);
  });

  it("reads a newer MLflow's database (a later revision, a column and a table more)", async () => {
    const db = path.join(run("newer", { mlflow_run: "grpo-lr3e-6" }), "logs", "mlflow.db");
    writeMlflowDb(db, TWO_GRPO_RUNS);
    const w = new Database(db);
    w.exec(`UPDATE alembic_version SET version_num = 'ffffffffffff';
      ALTER TABLE metrics ADD COLUMN dataset_uuid VARCHAR(36);
      CREATE TABLE workspaces (name VARCHAR(63) PRIMARY KEY)`);
    w.close();
    expect((await rewardOf("newer")).points).toEqual([[1, 0.75]]);
  });

  it("reads a database a writer holds locked (BEGIN EXCLUSIVE), changing no byte", async () => {
    const dir = run("locked", { mlflow_run: "grpo-lr3e-6" });
    const file = path.join(dir, "logs", "mlflow.db");
    const writer = openMlflowWalWriter(file, TWO_GRPO_RUNS);
    writer.exec("BEGIN EXCLUSIVE");
    writer
      .prepare("INSERT INTO params (key, value, run_uuid) VALUES ('x', 'y', ?)")
      .run("b2".repeat(16));
    const before = snapshot(path.join(dir, "logs"));
    try {
      expect((await rewardOf("locked")).points).toEqual([[1, 0.75]]);
      expect(snapshot(path.join(dir, "logs"))).toEqual(before);
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
  });

  it("an empty, a torn and a garbage database are notes naming the file, nothing else", async () => {
    const whole = path.join(root, "whole.db");
    writeMlflowDb(whole, TWO_GRPO_RUNS);
    const bytes = readFileSync(whole);
    const cases = {
      empty: Buffer.alloc(0),
      torn: bytes.subarray(0, bytes.length >> 1),
      garbage: Buffer.from("not a database at all ".repeat(500)),
    };
    for (const [name, content] of Object.entries(cases)) {
      const dir = run(`bad-${name}`, { mlflow_run: "grpo-lr3e-6" });
      writeFileSync(path.join(dir, "logs", "mlflow.db"), content);
      const before = snapshot(path.join(dir, "logs"));
      const { s, points } = await rewardOf(`bad-${name}`);
      expect(points, name).toBeUndefined();
      expect(s.notes.join("\n"), name).toMatch(/^mlflow\.db: /);
      expect(snapshot(path.join(dir, "logs")), name).toEqual(before);
    }
  });

  it("reads TensorBoard event files in a subdirectory of tensorboard/, as hparams writes one", async () => {
    const dir = run("hparams");
    const sub = path.join(dir, "logs", "tensorboard", "1788000000.123");
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      path.join(sub, "events.out.tfevents.1788000000.node.1.0"),
      eventFileBytes(0, [{ tag: "train/reward", step: 3, wall_time: 1, value: 0.5 }]),
    );
    expect((await rewardOf("hparams")).points).toEqual([[3, 0.5]]);
  });

  it("passes over another program's database; names SwanLab's directory as not read", async () => {
    const dir = run("other");
    const other = new Database(path.join(dir, "logs", "cache.db"));
    other.exec("CREATE TABLE t (x)");
    other.close();
    mkdirSync(path.join(dir, "logs", "swanlab"));
    const t = await runTraining(await getRun("other", root));
    expect(t.notes).toEqual([]);
    expect(t.loggers).toEqual([
      expect.objectContaining({ path: "swanlab", logger: "swanlab", read: false }),
    ]);
  });
});
