// The scale benchmark's runs, generated once under bench/out/scale and reused while
// their stamps match: `scale-records`, 1,000,000 Gym rollout records carrying `_ng_token_capture`
// (about 347 bytes each, token stores consumed after delivery), and `scale-store-<n>`, token runs
// of n rollouts (40,000 and 120,000 in the bench) with their records.
import {
  createWriteStream,
  existsSync,
  linkSync,
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
const STAMP = "scale-v2";

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

/** A token run's rollout id: eight rollouts per task, as Gym names them. */
const storeId = (i: number) => `${Math.floor(i / 8)}-${i % 8}`;

/**
 * `scale-store-<n>` for each size: rollouts with token stores of 2–6 calls (about 30 kB each, as
 * a short agent rollout writes) and their records. The largest run is generated (seeded per
 * rollout, so the bytes never depend on the sizes asked for); a smaller one is its first rollouts,
 * hard-linked, with the first records.
 */
async function writeStoreRuns(sizes: readonly number[]): Promise<void> {
  const largest = Math.max(...sizes);
  const big = storeRunDir(largest);
  manifest(big, "Scale run with token stores", `${largest} rollouts with token stores.`);
  const rng = new Random(17_001);
  const records: string[] = [];
  mkdirSync(path.join(big, "tokens"), { recursive: true });
  for (let i = 0; i < largest; i++) {
    const id = storeId(i);
    const lines = syntheticRolloutLines({
      rolloutId: id,
      calls: rng.int(2, 6),
      lastPromptTokens: rng.int(600, 2400),
      recordedParents: true,
      seed: i + 1,
    });
    writeFileSync(path.join(big, "tokens", `${id}.tokens.jsonl`), [...lines].join(""));
    records.push(`${JSON.stringify(record(i, rng))}\n`);
  }
  await writeStream(path.join(big, "rollouts.jsonl"), records);
  for (const n of sizes) {
    if (n === largest) continue;
    const dir = storeRunDir(n);
    manifest(dir, "Scale run with token stores", `${n} rollouts with token stores.`);
    mkdirSync(path.join(dir, "tokens"), { recursive: true });
    for (let i = 0; i < n; i++) {
      const name = `${storeId(i)}.tokens.jsonl`;
      linkSync(path.join(big, "tokens", name), path.join(dir, "tokens", name));
    }
    await writeStream(path.join(dir, "rollouts.jsonl"), records.slice(0, n));
  }
}

/** Where the token run of `n` rollouts is generated. */
export const storeRunName = (n: number) => `scale-store-${n}`;
const storeRunDir = (n: number) => path.join(SCALE_DIR, storeRunName(n));

/** Generates `dir`'s part of the scale runs unless its stamp says it is there; the time it took. */
async function stamped(
  name: string,
  want: string,
  write: () => Promise<void>,
): Promise<number | null> {
  const stamp = path.join(SCALE_DIR, `.stamp-${name}`);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return null;
  const t0 = performance.now();
  rmSync(stamp, { force: true });
  await write();
  writeFileSync(stamp, want);
  return performance.now() - t0;
}

/** The records-only run, generated when its stamp is missing or another; the time it took. */
export function scaleRecordsRun(records = 1_000_000): Promise<number | null> {
  return stamped("records", `${STAMP}:${records}`, async () => {
    rmSync(path.join(SCALE_DIR, "scale-records"), { recursive: true, force: true });
    await writeRecordsRun(records);
  });
}

/** The token runs of `sizes` rollouts, generated when their stamp is missing or another. */
export function scaleStoreRuns(sizes: readonly number[]): Promise<number | null> {
  return stamped("stores", `${STAMP}:${sizes.join(",")}`, async () => {
    for (const n of sizes) rmSync(storeRunDir(n), { recursive: true, force: true });
    await writeStoreRuns(sizes);
  });
}
