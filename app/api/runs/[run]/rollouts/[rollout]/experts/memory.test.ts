// A 200k-token rollout whose calls carry 48 layers × top-8 routes as int8 envelopes (≈ 115M routes
// over its two calls): the experts route answers a window at its end while the heap stays small.
// Numbers for those routes would be 8 bytes each (920 MB), nested lists far more, and the envelope
// kept as a JS string 153 MB: the bound below holds only when routes stay bytes (docs/experts.md).
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expertsWindowSchema } from "@/lib/schema/api-experts";
import { req, serveRunsRoot } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

const LAYERS = 48;
const TOPK = 8;
const FIRST = { prompt: 1000, gen: 99_000 };
const SECOND = { tail: 1000, gen: 99_000 };
const TOTAL = FIRST.prompt + FIRST.gen + SECOND.tail + SECOND.gen; // 200,000
const MB = 1 << 20;

/** The planted expert of (call, row, layer, k); −1 on every 1000th row from row 3 (fallback). */
const expert = (call: number, row: number, l: number, k: number) =>
  row % 1000 === 3 ? -1 : (row * 5 + l * 16 + k + call * 7) % 128;

function envelope(call: number, rows: number): Buffer {
  const width = LAYERS * TOPK;
  const bytes = Buffer.alloc(rows * width);
  for (let r = 0, i = 0; r < rows; r++)
    for (let l = 0; l < LAYERS; l++)
      for (let k = 0; k < TOPK; k++) bytes.writeInt8(expert(call, r, l, k), i++);
  return Buffer.from(`nrlre1:int8:${rows}x${LAYERS}x${TOPK}:${bytes.toString("base64")}`);
}

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => (from + i) % 50_000);

function writeEntry(fd: number, id: string, prompt: number[], gen: number[], call: number): void {
  const head = {
    rollout_id: "0-0",
    model_call_id: id,
    model: "policy",
    prompt_token_ids: prompt,
    generation_token_ids: gen,
    generation_log_probs: gen.map(() => -0.1),
    parent_call_id: call === 0 ? null : "a",
  };
  const json = JSON.stringify(head);
  writeSync(fd, `${json.slice(0, -1)},"routed_experts":"`);
  const env = envelope(call, prompt.length + gen.length - 1);
  writeSync(fd, env);
  writeSync(fd, '"}\n');
}

let root: string;
beforeAll(() => {
  process.env.ROLLOUT_LENS_IO_WORKERS = "0"; // built in this process, where the heap is measured
  root = mkdtempSync(path.join(os.tmpdir(), "experts-memory-"));
  const dir = path.join(root, "big", "tokens");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(root, "big", "run.json"), JSON.stringify({ builder_profile: "seed" }));
  const fd = openSync(path.join(dir, "0-0.tokens.jsonl"), "w");
  const p1 = ids(0, FIRST.prompt);
  const g1 = ids(FIRST.prompt, FIRST.gen);
  writeEntry(fd, "a", p1, g1, 0);
  writeEntry(fd, "b", [...p1, ...g1, ...ids(7, SECOND.tail)], ids(11, SECOND.gen), 1);
  closeSync(fd);
}, 120_000);
serveRunsRoot(() => root);
afterAll(() => rmSync(root, { recursive: true, force: true })); // 155 MB of token file

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe("experts of a 200k-token rollout", () => {
  it("answers the last window with the heap bounded", async () => {
    const before = heap();
    let peak = before;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 5);
    const res = await GET(req(`/x?offset=${TOTAL - 1000}&limit=1000`), {
      params: Promise.resolve({ run: "big", rollout: "0-0" }),
    } as never);
    clearInterval(sample);
    if (res.status !== 200) throw new Error(await res.text());
    const w = expertsWindowSchema.parse(await res.json());
    expect(w.total).toBe(TOTAL);
    // Position p of the chain past the first call's tokens is row p of the second call.
    const row = TOTAL - 1000 + 5;
    expect(w.experts[5]?.[47]).toEqual(
      Array.from({ length: TOPK }, (_, k) => expert(1, row, 47, k)),
    );
    expect(w.experts[3]).toBeNull(); // row 199003: planted fallback
    expect(w.experts[999]).toBeNull(); // the last token: S = P + G − 1 has no row for it
    const retained = heap() - before;
    // Measured: a few MB retained (the model's view; its routes are 115 MB of int8 off the heap).
    expect(retained).toBeLessThan(64 * MB);
    // Measured: 10 MB at the sampled peak; the envelope parsed as a JS string peaked at 103 MB.
    expect(peak - before).toBeLessThan(64 * MB);
    console.log(
      `experts memory: retained ${(retained / MB).toFixed(1)} MB, peak sampled ${((peak - before) / MB).toFixed(1)} MB, arrayBuffers ${(process.memoryUsage().arrayBuffers / MB).toFixed(0)} MB`,
    );
  }, 120_000);
});
