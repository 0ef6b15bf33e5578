// The memory budget: jobs whose bytes fit run side by side, the rest wait in arrival order, and a
// job larger than the whole budget runs alone; counted here from the jobs' own start and end.
import { describe, expect, it } from "vitest";
import { MemoryBudget } from "./budget";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("MemoryBudget", () => {
  it("runs what fits at once, queues the rest in order, and runs an oversized job alone", async () => {
    const budget = new MemoryBudget(100);
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const gates = new Map<string, ReturnType<typeof gate>>();
    const job = (name: string, bytes: number) => {
      const g = gate();
      gates.set(name, g);
      return budget.run(bytes, async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${name}`);
        await g.opened;
        running--;
        log.push(`end ${name}`);
      });
    };
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const all = [job("a", 60), job("b", 30), job("c", 50), job("huge", 500), job("d", 10)];
    await tick();
    expect(log).toEqual(["start a", "start b"]); // c (50) waits: 60 + 30 + 50 > 100
    gates.get("a")!.open();
    await tick();
    expect(log.slice(2)).toEqual(["end a", "start c"]); // 30 + 50 fit; huge waits its turn, d behind it
    gates.get("b")!.open();
    gates.get("c")!.open();
    await tick();
    expect(log.slice(4)).toEqual(["end b", "end c", "start huge"]);
    expect(running).toBe(1); // alone
    gates.get("huge")!.open();
    await tick();
    gates.get("d")!.open();
    await Promise.all(all);
    expect(log.slice(7)).toEqual(["end huge", "start d", "end d"]);
    expect(most).toBe(2);
  });
});
