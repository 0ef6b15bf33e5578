// A side file of a token store (.tokens.intents, .tokens.state.json, .tokens.incomplete) that is a
// FIFO: refused by type, never waited on. The rollout's inspector view answers 200 with a read
// issue naming the file and masks; its row in the run's table carries the same refusal; the
// other rollouts of the run are untouched. The run has no run.json and Gym main's side files, so
// auto judges it by gym-v1, where `.tokens.incomplete` alone never masks (docs/gym-v1-store.md §3: the
// marker is only the writer's log, never read): that rollout is trained, its refusal still listed. Read through the real routes on the built store workers.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRolloutCapture } from "@/lib/store/token-store";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getTable } from "./runs/[run]/rollouts/route";

const ENV = ["ROLLOUT_LENS_RUNS", "ROLLOUT_LENS_CACHE", "ROLLOUT_LENS_IO_WORKERS"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const RUN = "fifo-side";
/** Each hostile rollout and the side file that is a FIFO. */
const CASES = [
  ["i-0", ".tokens.intents"],
  ["s-0", ".tokens.state.json"],
  ["c-0", ".tokens.incomplete"],
] as const;
const refusal = (file: string) => `${file}: a FIFO (named pipe), not a regular file; refused`;
/** Whether gym-v1 masks the rollout whose side file `suffix` is refused (see the header). */
const masks = (suffix: string) => suffix !== ".tokens.incomplete";
let dir: string;

const good = (id: string) =>
  line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
  line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 }));

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-node.mjs"]); // the store worker, from this source
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-fifo-side-"));
  dir = path.join(root, RUN, "tokens");
  mkdirSync(dir, { recursive: true });
  for (const id of ["g-0", ...CASES.map(([id]) => id)])
    writeFileSync(path.join(dir, `${id}.tokens.jsonl`), good(id));
  for (const [id, suffix] of CASES) execFileSync("mkfifo", [path.join(dir, id + suffix)]);
  process.env.ROLLOUT_LENS_RUNS = root;
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  delete process.env.ROLLOUT_LENS_IO_WORKERS;
}, 60_000);
afterAll(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

describe("a FIFO side file is refused by type, in its own rollout's view and row", () => {
  it.each(CASES)("%s (%s a FIFO): the inspector answers 200 with the read issue", async (id, s) => {
    const res = await getRollout(new Request("http://localhost/x"), ctx({ run: RUN, rollout: id }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.read.issues).toContainEqual({
      file: id + s,
      line: null,
      severity: "error",
      message: refusal(id + s),
    });
    expect(body.profile_reason).toMatch(/→ gym-v1/);
    expect(body.verdict.mask_sample).toBe(masks(s));
  });

  it("the run's table lists every rollout, each hostile row with its refusal", async () => {
    const url = `http://localhost/api/runs/${RUN}/rollouts?limit=100`;
    let page: {
      rollouts: Array<{ rollout_id: string; mask_sample: boolean; error: string | null }>;
      progress: { running: boolean };
    };
    for (let tries = 0; ; tries++) {
      const res = await getTable(new Request(url), ctx({ run: RUN }));
      expect(res.status).toBe(200);
      page = await res.json();
      if (!page.progress.running && page.rollouts.length === 4) break;
      expect(tries).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 200));
    }
    const row = new Map(page.rollouts.map((r) => [r.rollout_id, r]));
    for (const [id, suffix] of CASES)
      expect(row.get(id)).toMatchObject(
        masks(suffix)
          ? { mask_sample: true, error: `OSError: ${refusal(id + suffix)}` }
          : { mask_sample: false, error: null },
      );
    expect(row.get("g-0")).toMatchObject({ mask_sample: false, error: null });
  }, 60_000);

  it("read on this thread (no store worker), each is the same issue, never a thrown read", async () => {
    for (const [id, suffix] of CASES) {
      const capture = await readRolloutCapture(dir, id);
      expect(capture.issues.map((i) => i.message)).toContain(refusal(id + suffix));
      expect(capture.snapshot.readError).toBe(`OSError: ${refusal(id + suffix)}`);
    }
  });
});
