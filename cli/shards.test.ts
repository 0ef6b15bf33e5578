// `rollout-lens index --shard` as a batch job would run it: 4 shard processes at once over a
// 200-rollout run, merged, must equal the single-process index of the same run row for row.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { listStore } from "@/lib/store";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { resolveRunLayout, type RunLayout } from "@/lib/runs/root";
import { importShards, keysIn, mapSink, seedFromShards } from "@/lib/index/shards/import";
import { readShardDir, shardSetRows } from "@/lib/index/shards/set";
import { shardOf, type ShardRow } from "@/lib/index/shards/file";
import { shardSummaryJson } from "@/lib/index/shards/write";
import { summarizeSafely } from "@/lib/rollout/summarize";
import { keyedInputs } from "@/lib/index/keys";
import { fingerprintDir } from "@/lib/testing/temp-store";
import { parseCommand, UsageError } from "./args";

const SOURCE = path.resolve("fixtures/runs/claude-code-capture-on");
const COPIES = 5;
const SHARDS = 4;
const work = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-shard-cli-"));
const runDir = path.join(work, "runs", "cc-x5");
const shardDir = path.join(work, "shards");

/** `T-R...` -> `(T + 100 k)-R...`: the sample run's rollouts as copy k, ids renamed. */
const renamed = (text: string, k: number) =>
  text.replace(/^(\d+)-/, (_, t: string) => `${Number(t) + 100 * k}-`);

/** The Claude Code sample run (side calls, compaction, retries, a torn write) copied 5 times over. */
function writeRun(): void {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(path.join(runDir, "run.json"), readFileSync(path.join(SOURCE, "run.json")));
  const records: string[] = [];
  for (let k = 0; k < COPIES; k++) {
    for (const sub of ["tokens", "model-calls"]) {
      mkdirSync(path.join(runDir, sub), { recursive: true });
      for (const name of readdirSync(path.join(SOURCE, sub))) {
        const text = readFileSync(path.join(SOURCE, sub, name), "utf8").replace(
          /"rollout_id":"(\d+-\d+)"/g,
          (_, id: string) => `"rollout_id":"${renamed(id, k)}"`,
        );
        writeFileSync(path.join(runDir, sub, renamed(name, k)), text);
      }
    }
    const lines = readFileSync(path.join(SOURCE, "rollouts.jsonl"), "utf8").split("\n");
    for (const l of lines.filter((x) => x !== ""))
      records.push(
        l.replace(
          /"_ng_task_index":(\d+)/,
          (_, t: string) => `"_ng_task_index":${Number(t) + 100 * k}`,
        ),
      );
  }
  writeFileSync(path.join(runDir, "rollouts.jsonl"), records.join("\n") + "\n");
}

function cli(args: string[]) {
  return spawnSync(process.execPath, ["cli/bin.mjs", ...args], { encoding: "utf8" });
}

/** Runs the CLI as a child process, resolving with its exit code and stderr. */
function cliAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["cli/bin.mjs", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (status) => resolve({ status, stderr }));
  });
}

const runLayout = () => resolveRunLayout("cc-x5", runDir, path.dirname(runDir));

/** The run's keyed inputs, listed exactly as lib/index/run-index's refresh lists them. */
async function indexInputs(run: RunLayout) {
  const [tokens, calls, records] = await Promise.all([
    listStore(run.tokensDir as string, { stat: true }),
    listStore(run.modelCallsDir as string, { stat: true }),
    readRolloutRecords(run.rolloutsFile),
  ]);
  return keyedInputs(run, tokens, calls, records);
}

beforeAll(() => {
  // cli/bin.mjs runs dist/cli.mjs: build it from the current source first (esbuild, < 1 s).
  execFileSync(process.execPath, ["scripts/build-node.mjs"]);
  writeRun();
}, 60_000);

describe("rollout-lens index --shard", () => {
  it("4 shards run at once and merged equal the single-process index row for row", async () => {
    const before = fingerprintDir(runDir);
    const runs = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) =>
        cliAsync(["index", runDir, "--shard", `${i}/${SHARDS}`, "--out", shardDir]),
      ),
    );
    for (const r of runs) expect(r, r.stderr).toMatchObject({ status: 0 });
    expect(runs[0]!.stderr).toMatch(
      /wrote .*shard-0000-of-0004\.sqlite: shard 0\/4, \d+ of the run's 200 rollouts/,
    );
    const merged = path.join(work, "merged", "index.sqlite");
    const merge = cli(["index", "--merge", shardDir, "--out", merged]);
    expect(merge.status, merge.stderr).toBe(0);

    // The single-process index: every rollout summarised in this process, keyed as the index keys it.
    const run = await runLayout();
    const inputs = await indexInputs(run);
    expect(inputs.size).toBe(200);
    const expected: ShardRow[] = [];
    for (const [id, { input, key }] of inputs)
      expected.push({ id, key, summary: shardSummaryJson(await summarizeSafely(input)) });
    expected.sort((a, b) => (a.id < b.id ? -1 : 1));

    const rows = [...shardSetRows(readShardDir(merged))];
    expect(rows.map((r) => [r.id, r.key])).toEqual(expected.map((r) => [r.id, r.key]));
    for (const [i, row] of rows.entries())
      expect(JSON.parse(row.summary), row.id).toEqual(JSON.parse(expected[i]!.summary));

    // Each shard holds exactly the rollouts whose id hashes to it; nothing was written in the run.
    const set = readShardDir(shardDir);
    for (const [i, file] of set.files.entries()) {
      const ids = [...shardSetRows({ ...set, files: [file], metas: [set.metas[i]!] })].map(
        (r) => r.id,
      );
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => shardOf(id, SHARDS) === i)).toBe(true);
    }
    expect(fingerprintDir(runDir)).toEqual(before);

    // The server's import takes every row, and none whose files changed since.
    expect((await importShards(run, merged)).rows.size).toBe(200);
    const touched = path.join(runDir, "tokens", "101-0.tokens.jsonl");
    utimesSync(touched, new Date(), new Date(Date.now() + 5000));
    const sink = mapSink();
    const seeded = {
      ...(await seedFromShards(shardDir, keysIn(await indexInputs(run)), sink)),
      ...sink,
    };
    expect(seeded).toMatchObject({ stale: 1, invalid: 0, notice: null });
    expect(seeded.rows.has("101-0")).toBe(false);
    expect(seeded.rows.size).toBe(199);
  }, 120_000);

  it("refuses a shard set with a missing shard, and writing into the run or the shard directory", () => {
    const partial = path.join(work, "partial");
    expect(cli(["index", runDir, "--shard", "0/2", "--out", partial]).status).toBe(0);
    const merge = cli(["index", "--merge", partial, "--out", path.join(work, "p.sqlite")]);
    expect(merge).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/missing shard 1 of 2/),
    });
    const inRun = cli(["index", runDir, "--out", path.join(runDir, "shards")]);
    expect(inRun).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("inside the run directory"),
    });
    expect(readdirSync(runDir)).not.toContain("shards");
    const inShards = cli(["index", "--merge", partial, "--out", path.join(partial, "all.sqlite")]);
    expect(inShards).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("inside the shard directory"),
    });
    expect(cli(["index", runDir, "--shard", "1/2", "--out", partial]).status).toBe(0);
    const mergeInRun = cli(["index", "--merge", partial, "--out", path.join(runDir, "all.sqlite")]);
    expect(mergeInRun).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("inside the run directory"),
    });
    expect(readdirSync(runDir)).not.toContain("all.sqlite");
    rmSync(partial, { recursive: true });
  });
});

describe("parseCommand index", () => {
  it("parses a shard, a whole run and a merge", () => {
    expect(
      parseCommand(["index", "r", "--shard", "3/64", "--out", "o", "--profile", "auto"]),
    ).toEqual({
      command: "index",
      runDir: "r",
      out: "o",
      shard: { index: 3, count: 64 },
      profile: "auto",
      sideCallPatterns: undefined,
    });
    expect(
      parseCommand(["index", "r", "--out", "o", "--side-call-pattern", "haiku"]),
    ).toMatchObject({
      shard: { index: 0, count: 1 },
      sideCallPatterns: ["haiku"],
    });
    expect(parseCommand(["index", "--merge", "s", "--out", "f"])).toEqual({
      command: "merge",
      shardDir: "s",
      out: "f",
    });
    expect(parseCommand(["index", "--help"])).toMatchObject({
      command: "help",
      usage: expect.stringContaining("--merge <shard-dir>"),
    });
  });

  it("says what is wrong with a bad shard, a missing --out or a foreign flag", () => {
    const bad = (argv: string[], message: RegExp) => {
      expect(() => parseCommand(argv)).toThrow(UsageError);
      expect(() => parseCommand(argv)).toThrow(message);
    };
    for (const shard of ["4/4", "1/0", "-1/4", "a/b", "3"])
      bad(["index", "r", `--shard=${shard}`, "--out", "o"], /--shard takes I\/N/);
    bad(["index", "r"], /needs --out/);
    bad(["index", "--merge", "s", "r", "--out", "f"], /--merge takes only/);
    bad(["index", "r", "--out", "o", "--port", "1"], /--port is not an option of index/);
    bad(["build", "s", "--shard", "0/2"], /--shard is an option of index/);
    bad(["serve", "--out", "x"], /--out is an option of index/);
  });
});
