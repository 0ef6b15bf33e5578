// Builder benchmark on three 500-call rollouts with about 200k tokens in the last prompt: the best
// case (append-only, one chain, recorded parents) and the adversarial case (no recorded parents,
// retries, sub-agent branches diverging in their last token, side calls by pattern and by
// self-calibration, ambiguous parents), and the interleaved case (sub-agent chains interleaved call by
// call: no prompt shares its predecessor line's bytes, so neither the reader nor the builder links
// cheaply by the previous prompt). Figure: builder time / JSON.parse of the same lines.
// Warm: in this process, median of 3 after a warm-up, page cache warm. Cold: a fresh process after
// the page cache is dropped (its first JSON.parse against its first build). Target ≤ 1.0.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { decideVerdict, type Profile, type Verdict } from "@/lib/builder";
import { tokenEntrySchema } from "@/lib/schema";
import { ADVERSARIAL_SIDE_PATTERNS } from "@/fixtures/generator/adversarial-rollout";
import {
  BIG_ROLLOUT_ID,
  INTERLEAVED_CHAINS,
  LARGE_DEFAULTS,
  writeAdversarialRollout,
  writeInterleavedRollout,
  writeLargeRollout,
} from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { snapshotOf } from "@/lib/testing/snapshot";
import { dropPageCache } from "./cache";
import { runFresh } from "./fresh";
import { figure, fmt, mb, runAlone, time } from "./util";

const TARGET = 1.0;
const PROFILES: Profile[] = ["seed", "gym-v1"];

interface Workload {
  name: string;
  run: string;
  patterns: string[];
  /** Throws when the build did not exercise what the workload claims. */
  check: (v: Verdict, profile: Profile) => void;
}

const WORKLOADS: Workload[] = [
  {
    name: "best case",
    run: "large-rollout",
    patterns: [],
    check: (v, p) => {
      if (v.mask_sample || v.build?.chains.length !== 1)
        throw new Error(`best case (${p}): expected one unmasked chain`);
    },
  },
  {
    name: "adversarial",
    run: "adversarial-rollout",
    patterns: ADVERSARIAL_SIDE_PATTERNS,
    check: (v, p) => {
      const b = v.build;
      const ambiguous = b?.nodes.filter((n) => n.link === "ambiguous").length ?? 0;
      const retries = b?.retryGroups.filter((g) => g.members.length > 1).length ?? 0;
      const ok =
        !!b &&
        b.chains.length > 1 &&
        b.quarantined.length > 0 &&
        ambiguous > 0 &&
        retries > 0 &&
        (p !== "seed" || new Set(v.side_calls.map((s) => s.reason.kind)).size === 2);
      if (!ok)
        throw new Error(
          `adversarial (${p}): the build did not exercise branches, retries, ambiguous parents and both side-call reasons`,
        );
      console.log(
        `  ${p}: ${b.nodes.length} kept calls, ${b.chains.length} chains, ${retries} retry groups, ${ambiguous} ambiguous parents, ${b.quarantined.length} quarantined, ${v.side_calls.length} side calls`,
      );
    },
  },
  {
    name: "interleaved (no prompt shares its predecessor's bytes)",
    run: "interleaved-rollout",
    patterns: [],
    check: (v, p) => {
      const b = v.build;
      const roots = b?.nodes.filter((n) => n.link === "root").length ?? 0;
      if (!b || b.chains.length !== INTERLEAVED_CHAINS || roots !== INTERLEAVED_CHAINS)
        throw new Error(
          `interleaved (${p}): expected ${INTERLEAVED_CHAINS} chains, each linked by prefix from its own root`,
        );
    },
  },
];

async function warm(w: Workload, file: string): Promise<number> {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  const parseMs = await time(() => lines.map((l) => JSON.parse(l) as unknown));
  const entries = lines.map((l) => tokenEntrySchema.parse(JSON.parse(l)));
  console.log(
    `${w.name}: ${entries.length} calls, ${mb(statSync(file).size)}; warm (this process, page cache warm) JSON.parse of every line: ${fmt(parseMs)}`,
  );
  let worst = 0;
  for (const profile of PROFILES) {
    w.check(decideVerdict(snapshotOf(entries), { profile, sideCallPatterns: w.patterns }), profile);
    const ms = await time(() =>
      decideVerdict(snapshotOf(entries), { profile, sideCallPatterns: w.patterns }),
    );
    console.log(`  builder (${profile}), warm: ${fmt(ms)}, ratio ${(ms / parseMs).toFixed(3)}`);
    worst = Math.max(worst, ms / parseMs);
  }
  return worst;
}

async function cold(w: Workload, file: string): Promise<number> {
  console.log(`  cold: ${dropPageCache([file])}`);
  const base = await runFresh<{ readMs: number; parseMs: number }>({ task: "read-parse", file });
  console.log(
    `  fresh process: read ${fmt(base.readMs)} from a cold cache, first JSON.parse of every line ${fmt(base.parseMs)}`,
  );
  let worst = 0;
  for (const profile of PROFILES) {
    const r = await runFresh<{ ms: number }>({
      task: "build",
      file,
      profile,
      patterns: w.patterns,
    });
    console.log(
      `  builder (${profile}), first build in a fresh process: ${fmt(r.ms)}, ratio ${(r.ms / base.parseMs).toFixed(3)}`,
    );
    worst = Math.max(worst, r.ms / base.parseMs);
  }
  return worst;
}

export async function benchBuilder(): Promise<void> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  await writeAdversarialRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  await writeInterleavedRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const ratios: Array<[string, number]> = [];
  for (const w of WORKLOADS) {
    const file = path.join(LARGE_DIR, w.run, "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`);
    const warmRatio = await warm(w, file);
    const coldRatio = await cold(w, file);
    figure(`builder/JSON.parse, ${w.name}, worst profile, warm`, warmRatio, TARGET);
    figure(`builder/JSON.parse, ${w.name}, worst profile, cold (fresh process)`, coldRatio, TARGET);
    ratios.push([w.name, warmRatio]);
  }
  // The workloads side by side: how much each case costs over the best one.
  const best = ratios[0]?.[1] ?? NaN;
  for (const [name, r] of ratios)
    console.log(
      `  ${name}: builder/JSON.parse ${r.toFixed(3)} warm, ${(r / best).toFixed(2)}× the best case's`,
    );
}

runAlone("builder.bench.ts", "builder bench", benchBuilder);
