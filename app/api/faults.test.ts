// Faults stay local, through the real route handlers: a run whose metrics.jsonl or rollouts.jsonl
// fails with an I/O error (a link to /proc/self/mem reads as EIO, even for root) or is a directory
// is listed with its error and says what failed on its own pages; every other run, the list and
// the comparison keep answering. NaN and Infinity in metrics.jsonl become gaps with a note, and
// store files with odd names are named on the run's page. Nothing in a store is written.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { comparisonSchema, rolloutPageSchema, runHealthSchema, runListSchema } from "@/lib/schema";
import { GET as getRuns } from "./runs/route";
import { rolloutViewSchema } from "@/lib/schema/api-rollout";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getRollouts } from "./runs/[run]/rollouts/route";
import { GET as getHealth } from "./runs/[run]/health/route";
import { GET as getCompare } from "./compare/route";

const ENV = ["ROLLOUT_LENS_RUNS", "ROLLOUT_LENS_CACHE", "ROLLOUT_LENS_ALLOW_PATHS"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const req = (url = "/x") => new Request(`http://localhost${url}`);
let root: string;

const tokens = (id: string) =>
  line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
  line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 }));
const records = ["0-0", "1-0"]
  .map((id, i) => line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i, step: 1 }))
  .join("");
const metrics = [1, 2, 3, 4].map((step) => line({ step, reward: step / 10 })).join("");

/** A run with two rollouts in its token store, records and metrics; `files` replaces or adds. */
type Content = string | { link: string } | { dir: true };

function makeRun(id: string, files: Record<string, Content> = {}) {
  const dir = path.join(root, id);
  mkdirSync(path.join(dir, "tokens"), { recursive: true });
  const all: Record<string, Content> = {
    "tokens/0-0.tokens.jsonl": tokens("0-0"),
    "tokens/1-0.tokens.jsonl": tokens("1-0"),
    "rollouts.jsonl": records,
    "metrics.jsonl": metrics,
    ...files,
  };
  for (const [name, content] of Object.entries(all)) {
    const p = path.join(dir, name);
    if (typeof content === "string") writeFileSync(p, content);
    else if ("dir" in content) mkdirSync(p);
    else symlinkSync(content.link, p);
  }
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-faults-"));
  makeRun("good");
  makeRun("eio-metrics", { "metrics.jsonl": { link: "/proc/self/mem" } });
  makeRun("eio-rollouts", { "rollouts.jsonl": { link: "/proc/self/mem" } });
  makeRun("dir-metrics", {
    "metrics.jsonl": { dir: true },
    "run.json": JSON.stringify({ paths: { metrics: "metrics.jsonl" } }),
  });
  makeRun("nan-metrics", {
    "metrics.jsonl":
      line({ step: 1, reward: 0.1 }) +
      '{"step": 2, "reward": NaN, "loss": 0.5}\n' +
      '{"step": 3, "reward": 0.3, "loss": Infinity, "note": "NaN in a string stays"}\n' +
      '{"step": 4, "reward": -Infinity}\n' +
      line({ step: 5, reward: 0.5 }),
  });
  makeRun("odd-names", { "tokens/a b-0.tokens.jsonl": tokens("a b-0") });
  process.env.ROLLOUT_LENS_RUNS = root;
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  process.env.ROLLOUT_LENS_ALLOW_PATHS = "/proc"; // where the EIO links lead
});
afterAll(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

const health = async (run: string) => {
  const res = await getHealth(req(), ctx({ run }));
  expect(res.status).toBe(200);
  return runHealthSchema.parse(await res.json());
};
const messages = (h: { alerts: Array<{ message: string }> }) => h.alerts.map((a) => a.message);

/** Waits (polling, no fixed sleep) until no run's index is still being built. */
async function allIndexed(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { runs } = runListSchema.parse(await (await getRuns()).json());
      expect(runs.filter((r) => r.indexing.running).map((r) => r.id)).toEqual([]);
    },
    { timeout: 50_000, interval: 100 },
  );
}

describe("faults stay local", () => {
  it("the list of runs answers with every run, each broken one carrying its own error", async () => {
    const clean = ["good", "nan-metrics", "odd-names", "dir-metrics"];
    const before = clean.map((r) => fingerprintTree(path.join(root, r)));
    await allIndexed(); // the list answers within 0.5 s, with counts so far: these are the final ones
    const res = await getRuns();
    expect(res.status).toBe(200);
    const { runs } = runListSchema.parse(await res.json());
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual([...clean, "eio-metrics", "eio-rollouts"].sort());
    expect(byId.get("good")).toMatchObject({ manifest_error: null, rollouts: 2, steps: 4 });
    expect(byId.get("eio-metrics")).toMatchObject({ rollouts: 2, steps: 0 });
    expect(byId.get("eio-metrics")!.manifest_error).toMatch(/metrics\.jsonl: EIO/);
    expect(byId.get("eio-rollouts")).toMatchObject({ rollouts: 2, steps: 4 });
    expect(byId.get("eio-rollouts")!.manifest_error).toMatch(/rollouts\.jsonl: EIO/);
    expect(byId.get("dir-metrics")!.manifest_error).toMatch(/metrics\.jsonl: not a regular file/);
    expect(clean.map((r) => fingerprintTree(path.join(root, r)))).toEqual(before);
  }, 60_000);

  it("a run's unreadable metrics.jsonl is an alert on its page; its rollouts are served", async () => {
    const h = await health("eio-metrics");
    expect(h.rollouts).toBe(2);
    expect(h.metrics).toEqual([]);
    expect(messages(h)).toContainEqual(
      expect.stringMatching(/^`metrics\.jsonl: EIO: .*`: no training metrics are shown/),
    );
    expect(messages(await health("dir-metrics"))).toContainEqual(
      expect.stringMatching(/`metrics\.jsonl: not a regular file .*; refused`/),
    );
    expect(messages(await health("good")).join("\n")).not.toMatch(/metrics\.jsonl/);
  });

  it("an unreadable rollouts.jsonl leaves the table and the inspector to the token store", async () => {
    await allIndexed();
    const h = await health("eio-rollouts");
    expect(h.alerts.find((a) => a.kind === "unreadable_records")?.message).toMatch(
      /^`rollouts\.jsonl: EIO: .*`: the run's rollouts are shown from the token store alone/,
    );
    const table = rolloutPageSchema.parse(
      await (await getRollouts(req("/x?limit=10"), ctx({ run: "eio-rollouts" }))).json(),
    );
    expect(table.rollouts.map((r) => [r.rollout_id, r.source, r.n_calls])).toEqual([
      ["0-0", "store", 2],
      ["1-0", "store", 2],
    ]);
    const res = await getRollout(req(), ctx({ run: "eio-rollouts", rollout: "1-0" }));
    expect(res.status).toBe(200);
    const view = rolloutViewSchema.parse(await res.json());
    expect(view.read.issues).toContainEqual(
      expect.objectContaining({ file: "rollouts.jsonl", severity: "error" }),
    );
    expect(view.read.issues.find((i) => i.file === "rollouts.jsonl")?.message).toMatch(
      /EIO.*the rollout's record \(reward, step\) could not be read/,
    );
  });

  it("the comparison answers with a note on the broken side", async () => {
    const res = await getCompare(req("/api/compare?a=good&b=eio-metrics"));
    expect(res.status).toBe(200);
    const body = comparisonSchema.parse(await res.json());
    expect(body.notes).toContainEqual(
      expect.stringMatching(/^Run eio-metrics: could not read metrics\.jsonl: EIO/),
    );
  });
});

describe("NaN and Infinity in metrics.jsonl", () => {
  it("keeps the rows, draws the values as gaps and names file, line and key", async () => {
    const h = await health("nan-metrics");
    expect(h.metrics).toEqual([
      { step: 1, reward: 0.1 },
      { step: 2, reward: null },
      { step: 3, reward: 0.3 },
      { step: 4, reward: null },
      { step: 5, reward: 0.5 },
    ]);
    expect(h.metrics_unreadable).toBe(0);
    expect(messages(h)).toContainEqual(
      "`metrics.jsonl`: 3 values are not a finite number, kept as gaps in the charts: line 2 `reward` is NaN; line 3 `loss` is Infinity; line 4 `reward` is -Infinity.",
    );
  });
});

describe("skipped store files", () => {
  it("are named on the run's page with the reason", async () => {
    const h = await health("odd-names");
    expect(h.skipped_files).toEqual(["a b-0.tokens.jsonl"]);
    expect(h.rollouts).toBe(2);
    expect(messages(h)).toContainEqual(
      expect.stringMatching(
        /^1 store file was skipped: `a b-0\.tokens\.jsonl` — not a valid rollout id/,
      ),
    );
  });
});
