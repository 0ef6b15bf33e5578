// The bad-input suite: one rollout per kind of damage, served through the real route handlers.
// Each case names the message a user sees; the rest of the run keeps working; nothing is written.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { summarizeSafely } from "@/lib/rollout/summarize";
import { rolloutPageSchema, runHealthSchema, runListSchema } from "@/lib/schema";
import { GET as getRuns } from "./runs/route";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getTokens } from "./runs/[run]/rollouts/[rollout]/tokens/route";
import { GET as getRollouts } from "./runs/[run]/rollouts/route";
import { GET as getHealth } from "./runs/[run]/health/route";

const rec = (
  id: string,
  call: string,
  prompt: number[],
  gen: number[],
  extra: Record<string, unknown> = {},
) => line(tokenRecord(id, call, prompt, gen, extra));
const good = (id: string) =>
  rec(id, "a", [1, 2, 3], [4, 5]) +
  rec(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 });

/** rollout id -> [file content, the message its rollout route must carry] */
const CASES: Record<string, [string | Buffer, RegExp]> = {
  "corrupt-0": [
    rec("corrupt-0", "a", [1], [2]) +
      '{"rollout_id": "corrupt-0", \n' +
      rec("corrupt-0", "b", [1, 2, 3], [4]),
    /^JSONDecodeError: corrupt-0\.tokens\.jsonl: line 2: not valid JSON/,
  ],
  "newer-0": [
    rec("newer-0", "a", [1], [2], { schema_version: 7 }),
    /^ValidationError: newer-0\.tokens\.jsonl: line 1: schema_version 7 is newer than this reader supports \(1\)$/,
  ],
  "utf8-0": [
    Buffer.concat([
      Buffer.from(rec("utf8-0", "a", [1], [2])),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
    ]),
    /^UnicodeDecodeError: utf8-0\.tokens\.jsonl: line 2: not valid UTF-8$/,
  ],
  "logprobs-0": [
    rec("logprobs-0", "a", [1, 2], [3, 4], { generation_log_probs: [-0.1] }),
    /^ValueError: log-prob\/token length mismatch on a: 1 vs 2$/,
  ],
  "negative-0": [rec("negative-0", "a", [1, -5], [2]), /line 1: .*token id at index 1 is -5/],
  "fraction-0": [rec("fraction-0", "a", [1, 2], [2.5]), /line 1: .*token id at index 0 is 2\.5/],
  "dupe-0": [rec("dupe-0", "a", [1], [2]) + rec("dupe-0", "a", [1], [9]), /conflicting|duplicate/i],
  "item-0": [
    rec("item-0", "a", [1], [2], { output_items: [], token_item_index: 3 }),
    /token_item_index 3 is outside output_items \(0 items\)/,
  ],
  "missing-0": [
    line({ rollout_id: "missing-0", model_call_id: "a", prompt_token_ids: [1] }),
    /line 1: .*generation_token_ids/,
  ],
};

let root: string;
const prev = process.env.ROLLOUT_LENS_RUNS;
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const req = (url = "/x") => new Request(`http://localhost${url}`);

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-bad-"));
  const tokens = path.join(root, "bad", "tokens");
  const calls = path.join(root, "bad", "model-calls");
  mkdirSync(tokens, { recursive: true });
  mkdirSync(calls, { recursive: true });
  // The messages above are the seed consumer's; without a profile, the record with schema_version 7
  // would have auto judge the whole store as Gym main's (gym-v1 words are tested in the store tests).
  writeFileSync(path.join(root, "bad", "run.json"), '{"builder_profile": "seed"}');
  for (const [id, [content]] of Object.entries(CASES))
    writeFileSync(path.join(tokens, `${id}.tokens.jsonl`), content);
  writeFileSync(path.join(tokens, "good-0.tokens.jsonl"), good("good-0"));
  writeFileSync(
    path.join(tokens, "torn-0.tokens.jsonl"),
    good("torn-0") + '{"rollout_id": "torn-0", "model_call_id": "c", "prompt_tok',
  );
  writeFileSync(path.join(tokens, "empty-0.tokens.jsonl"), "");
  writeFileSync(path.join(tokens, "blank-0.tokens.jsonl"), "\n\n   \n");
  // A 50 MB single line: one call whose prompt holds about 6.5 million token ids.
  const huge = Array.from({ length: 6_500_000 }, (_, i) => i % 199_000);
  writeFileSync(path.join(tokens, "huge-0.tokens.jsonl"), rec("huge-0", "a", huge, [1, 2, 3]));
  writeFileSync(
    path.join(calls, "good-0.capture.jsonl"),
    "not json at all\n" +
      JSON.stringify({ model_call_id: "a", status_code: 200, latency_ms: 12 }) +
      "\n",
  );
  mkdirSync(path.join(root, "broken-manifest", "tokens"), { recursive: true });
  writeFileSync(
    path.join(root, "broken-manifest", "run.json"),
    '{"name": "x", "capture": "sometimes"}',
  );
  writeFileSync(path.join(root, "broken-manifest", "tokens", "0-0.tokens.jsonl"), good("0-0"));
  process.env.ROLLOUT_LENS_RUNS = root;
}, 60_000);
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

async function view(id: string, run = "bad") {
  const res = await getRollout(req(), ctx({ run, rollout: id }));
  return { status: res.status, body: await res.json() };
}

describe("bad input, through the routes", () => {
  it("each damaged rollout answers 200 with its error, file and line; the build is masked", async () => {
    const before = fingerprintTree(root);
    for (const [id, [, message]] of Object.entries(CASES)) {
      const { status, body } = await view(id);
      expect(status, id).toBe(200);
      const error =
        body.verdict.error ??
        body.read.issues.map((i: { message: string }) => i.message).join("; ");
      expect(error, id).toMatch(message);
    }
    expect(fingerprintTree(root)).toEqual(before);
  }, 60_000);

  it("a torn final line is ignored and reported; empty and blank files are no records", async () => {
    const torn = await view("torn-0");
    expect(torn.body.read.torn_tail).toBe(true);
    expect(torn.body.verdict).toMatchObject({ mask_sample: false, error: null });
    for (const id of ["empty-0", "blank-0"]) {
      const { status, body } = await view(id);
      expect(status).toBe(200);
      expect(body.calls).toEqual([]);
      expect(body.verdict.metrics).toEqual({}); // the seed consumer leaves such a record untouched
    }
  });

  it("a 50 MB single line is read, built and windowed", async () => {
    const { body } = await view("huge-0");
    expect(body.verdict.mask_sample).toBe(false);
    const w = await (
      await getTokens(
        req("/x?chain=main&offset=6499990&limit=20"),
        ctx({ run: "bad", rollout: "huge-0" }),
      )
    ).json();
    expect(w.total).toBe(6_500_003);
    expect(w.tokens.mask).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
  }, 60_000);

  it("non-JSON lines in the capture store are counted, the rest is joined", async () => {
    const { body } = await view("good-0");
    expect(body.read.capture_store).toMatchObject({ exists: true, unreadable: 1 });
    expect(
      body.calls.find((c: { model_call_id: string }) => c.model_call_id === "a").exchange,
    ).toMatchObject({ status_code: 200, latency_ms: 12 });
  });

  it("the rest of the run still works: table, health and alerts", async () => {
    // The table answers with what is indexed so far: wait until the index has finished.
    const page = async () =>
      rolloutPageSchema.parse(
        await (await getRollouts(req("/x?limit=100"), ctx({ run: "bad" }))).json(),
      );
    const table = await vi.waitFor(
      async () => {
        const p = await page();
        if (p.progress?.running)
          throw new Error(`indexing: ${p.progress.done}/${p.progress.total}`);
        return p;
      },
      { timeout: 50_000, interval: 100 },
    );
    const ids = table.rollouts.map((r) => r.rollout_id);
    expect(ids).toEqual(expect.arrayContaining(["good-0", "torn-0", ...Object.keys(CASES)]));
    expect(table.rollouts.find((r) => r.rollout_id === "good-0")).toMatchObject({
      mask_sample: false,
      n_calls: 2,
    });
    const health = runHealthSchema.parse(
      await (await getHealth(req(), ctx({ run: "bad" }))).json(),
    );
    const kinds = health.alerts.map((a) => a.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(["unreadable", "newer_schema", "masked_fraction"]),
    );
    expect(health.alerts.find((a) => a.kind === "newer_schema")!.rollout_ids).toEqual(["newer-0"]);
  }, 60_000);

  it("a run whose run.json is invalid is listed with the error and still served", async () => {
    const { runs } = runListSchema.parse(await (await getRuns()).json());
    const broken = runs.find((r) => r.id === "broken-manifest");
    expect(broken?.manifest_error).toMatch(/^run\.json: capture: /);
    expect((await view("0-0", "broken-manifest")).body.verdict.mask_sample).toBe(false);
  });

  it("a store that vanishes while being read gives that rollout an error row, not a crash", async () => {
    const dir = path.join(root, "bad", "tokens");
    writeFileSync(path.join(dir, "gone-0.tokens.jsonl"), good("gone-0"));
    const input = {
      rolloutId: "gone-0",
      tokensDir: dir,
      modelCallsDir: null,
      profile: "seed" as const,
      record: null,
      bytes: 10,
      hasStoreFiles: true,
      present: ["tokens" as const],
    };
    rmSync(path.join(dir, "gone-0.tokens.jsonl")); // listed, then deleted before the read
    const s = await summarizeSafely(input);
    expect(s).toMatchObject({ rollout_id: "gone-0", unreadable: true, mask_sample: true });
    expect(s.error).toMatch(/^read failed: ENOENT/);
  });

  it("symlinks that point outside the run are refused", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-outside-"));
    writeFileSync(path.join(outside, "secret-0.tokens.jsonl"), good("secret-0"));
    symlinkSync(
      path.join(outside, "secret-0.tokens.jsonl"),
      path.join(root, "bad", "tokens", "secret-0.tokens.jsonl"),
    );
    symlinkSync(outside, path.join(root, "linked-run"));
    const { status, body } = await view("secret-0");
    expect(status).toBe(200);
    expect(body.verdict.error).toMatch(/points outside the store/);
    expect(body.calls).toEqual([]);
    const res = await getRollout(req(), ctx({ run: "linked-run", rollout: "secret-0" }));
    expect(res.status).toBe(404);
  });
});
