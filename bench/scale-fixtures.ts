// The scale benchmark's runs, generated once under bench/out/scale and reused while
// their stamp matches: `scale-records`, 1,000,000 Gym rollout records carrying `_ng_token_capture`
// (about 347 bytes each, token stores consumed after delivery), and `scale-store`, 100,000 rollouts
// with small token stores (one or two calls) and their records.
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { Random } from "@/fixtures/generator/random";
import { syntheticRolloutLines } from "@/fixtures/generator/synthetic-rollout";
import { LARGE_DIR } from "@/fixtures/generate";

export const SCALE_DIR = path.join(LARGE_DIR, "..", "scale");
const STAMP = "scale-v1";

/** One Gym rollout record as a consumer writes it after delivery (the capture's verdict inside). */
function record(i: number, rng: Random): Record<string, unknown> {
  const masked = rng.chance(0.03);
  const calls = rng.int(2, 12);
  const generated = rng.int(800, 9000);
  return {
    _ng_task_index: Math.floor(i / 8),
    _ng_rollout_index: i % 8,
    agent_ref: { name: "swe_agent" },
    reward: rng.chance(0.55) ? 1 : 0,
    step: Math.floor(i / 512),
    ...(masked ? { mask_sample: true } : {}),
    _ng_token_capture: masked
      ? { n_calls: calls, error: "ValueError: capture produced no safe trainable chain" }
      : {
          n_calls: calls,
          chains: 1,
          roots: 1,
          delivered_fraction: 1,
          quarantined_calls: 0,
          side_calls_excluded: rng.int(0, 2),
          generated_tokens_captured: generated,
          generated_tokens_delivered: generated,
          parent_link_fallbacks: { prefix_match: rng.int(0, 3) },
          profile: "gym-v1",
        },
  };
}

async function writeStream(file: string, lines: Iterable<string>): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  let buf = "";
  for (const l of lines) {
    buf += l;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once("drain", () => r()));
      buf = "";
    }
  }
  out.end(buf);
  await new Promise<void>((r) => out.once("finish", () => r()));
}

function manifest(dir: string, name: string, description: string): void {
  mkdirSync(dir, { recursive: true });
  const run = { name, description, capture: "on", builder_profile: "gym-v1" };
  writeFileSync(path.join(dir, "run.json"), JSON.stringify(run, null, 2));
}

async function writeRecordsRun(rollouts: number): Promise<void> {
  const dir = path.join(SCALE_DIR, "scale-records");
  manifest(dir, "Scale run, records only", `${rollouts} rollout records, stores consumed.`);
  const rng = new Random(17_000);
  function* lines() {
    for (let i = 0; i < rollouts; i++) yield `${JSON.stringify(record(i, rng))}\n`;
  }
  await writeStream(path.join(dir, "rollouts.jsonl"), lines());
}

async function writeStoreRun(rollouts: number): Promise<void> {
  const dir = path.join(SCALE_DIR, "scale-store");
  manifest(dir, "Scale run with token stores", `${rollouts} rollouts with small token stores.`);
  const rng = new Random(17_001);
  const records: string[] = [];
  mkdirSync(path.join(dir, "tokens"), { recursive: true });
  for (let i = 0; i < rollouts; i++) {
    const id = `${Math.floor(i / 8)}-${i % 8}`;
    const lines = syntheticRolloutLines({
      rolloutId: id,
      calls: rng.int(1, 2),
      lastPromptTokens: rng.int(20, 60),
      recordedParents: true,
      seed: i + 1,
    });
    writeFileSync(path.join(dir, "tokens", `${id}.tokens.jsonl`), [...lines].join(""));
    records.push(`${JSON.stringify(record(i, rng))}\n`);
  }
  await writeStream(path.join(dir, "rollouts.jsonl"), records);
}

/** The two runs, generated when their stamp is missing or another; says which. */
export async function scaleRuns(
  records = 1_000_000,
  store = 100_000,
): Promise<{ generatedMs: number | null }> {
  const stamp = path.join(SCALE_DIR, ".stamp");
  const want = `${STAMP}:${records}:${store}`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return { generatedMs: null };
  const t0 = performance.now();
  rmSync(SCALE_DIR, { recursive: true, force: true });
  await writeRecordsRun(records);
  await writeStoreRun(store);
  writeFileSync(stamp, want);
  return { generatedMs: performance.now() - t0 };
}
