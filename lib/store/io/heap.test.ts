// The server's heap bound (./heap). A process keeps some 85 MB, then keeps promoting batches that
// live a few hundred turns to the old generation (some 30 MB of them alive at once). With the bound
// its largest heap stays under 3.3 times the first kept bytes (measured 2.75-2.83); without it V8
// let it reach 4.6-5.5 times, which this checks too, so the test can fail. Each measure runs in a
// process of its own: the bound is process-wide.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const HEAP = path.join(__dirname, "heap.ts");

/** The largest heap over the kept bytes, in a fresh process, with or without the bound applied. */
function growth(bounded: boolean): number {
  const script = `
    import v8 from "node:v8";
    if (${bounded}) (await import(${JSON.stringify(HEAP)})).boundHeapGrowth();
    const kept = [];
    for (let i = 0; i < 200; i++) kept.push(Array.from({ length: 10000 }, (_, j) => ({ j })));
    const base = v8.getHeapStatistics().used_heap_size;
    const ring = [];
    let max = 0;
    for (let round = 0; round < 20000; round++) {
      ring.push(Array.from({ length: 1000 }, (_, j) => ({ j, round })));
      if (ring.length > 600) ring.shift();
      if (round % 10 === 0) max = Math.max(max, v8.getHeapStatistics().total_heap_size);
    }
    console.log(JSON.stringify(max / base));`;
  const out = execFileSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", script],
    { encoding: "utf8" },
  );
  return JSON.parse(out.trim()) as number;
}

describe("the server's heap bound", () => {
  it("keeps the heap within a margin of what it keeps, where V8 alone lets it grow", () => {
    const bounded = growth(true);
    const free = growth(false);
    expect(free, "without the bound the workload must outgrow the limit").toBeGreaterThan(3.6);
    expect(bounded).toBeLessThan(3.3);
  }, 60_000);
});
