// The token store's per-entry check (lib/schema/token-entry-fast) against the zod schema it stands
// in for, on every line of the sample runs' token stores with their prompts emptied as the store's
// reader hands them over (their ids are scanned apart), and beside `JSON.parse` of the same lines:
// each timed over about 200,000 entries, median of 5 alternating rounds, in this process (warm).
// Target: the fast path at most half the schema's time.
import { fastTokenEntry, tokenEntrySchema } from "@/lib/schema";
import { sampleTokenLines } from "@/lib/testing/sample-token-lines";
import { figure } from "./util";

const ENTRIES = 200_000;

/** The lines that are entries, each with its prompt emptied as the store's reader hands it over. */
function sampleLines(): string[] {
  return sampleTokenLines().flatMap((l) => {
    try {
      const v = JSON.parse(l) as { prompt_token_ids?: unknown };
      v.prompt_token_ids = [];
      return [JSON.stringify(v)];
    } catch {
      return []; // a torn or empty line: not an entry
    }
  });
}

export async function benchTokenEntry(): Promise<void> {
  const lines = sampleLines();
  const reps = Math.ceil(ENTRIES / lines.length);
  const n = reps * lines.length;
  const values = lines.map((l) => JSON.parse(l) as unknown);
  const kinds = {
    "JSON.parse": () => lines.forEach((l) => JSON.parse(l)),
    zod: () => values.forEach((v) => tokenEntrySchema.parse(v)),
    fast: () => values.forEach((v) => fastTokenEntry(v) ?? tokenEntrySchema.parse(v)),
  };
  const times: Record<string, number[]> = { "JSON.parse": [], zod: [], fast: [] };
  for (let round = 0; round < 6; round++)
    for (const [name, fn] of Object.entries(kinds)) {
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) fn();
      if (round > 0) times[name]!.push(performance.now() - t0); // the first round warms the JIT
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [parse, zod, fast] = ["JSON.parse", "zod", "fast"].map((k) => median(times[k]!));
  const us = (ms: number) => `${((ms * 1000) / n).toFixed(2)} µs`;
  console.log(
    `${n} entries (${lines.length} sample lines × ${reps}), warm: JSON.parse ${us(parse!)}, zod ${us(zod!)}, fast path ${us(fast!)} per entry`,
  );
  figure("token entry check: fast path / zod schema", fast! / zod!, 0.5, (v) => v.toFixed(2));
}
