// An index's derived views (./views): computed once per generation of its rows, and dropped from
// the process's views cache as soon as the rows move on, every index's apart.
import { describe, expect, it } from "vitest";
import { processCache } from "@/lib/cache";
import { GenerationViews } from "./views";

const cached = () =>
  processCache<unknown>("summary-index-views", "entries", 256)
    .keys()
    .filter((k) => k.startsWith("test-"));

describe("an index's views", () => {
  it("computes each once per generation and drops the older generation's when the rows change", () => {
    const a = new GenerationViews("test-a");
    const b = new GenerationViews("test-b");
    let computed = 0;
    const page = (n: number) => () => (computed++, { rows: n });
    expect(a.get(1, "page:0", page(1))).toEqual({ rows: 1 });
    expect(a.get(1, "page:0", page(99))).toEqual({ rows: 1 }); // a hit: not computed again
    a.get(1, "count", page(2));
    b.get(7, "page:0", page(3));
    expect(computed).toBe(3);
    expect(cached().sort()).toEqual(["test-a\n1\ncount", "test-a\n1\npage:0", "test-b\n7\npage:0"]);
    // a's rows change: its generation-1 views go at once, b's stay.
    expect(a.get(2, "page:0", page(4))).toEqual({ rows: 4 });
    expect(cached().sort()).toEqual(["test-a\n2\npage:0", "test-b\n7\npage:0"]);
    // 200 more generations of polls leave one view of a's, not the cache's bound of them.
    for (let g = 3; g < 203; g++) a.get(g, "page:0", page(g));
    expect(cached().sort()).toEqual(["test-a\n202\npage:0", "test-b\n7\npage:0"]);
  });
});
