// Run facts as the run page lists them: nested config flattened to dotted keys, lists kept whole,
// long values cut with their length said, the list bounded with the rest counted.
import { describe, expect, it } from "vitest";
import { loggedFacts } from "./logged-facts";

describe("loggedFacts", () => {
  it("flattens nested objects to dotted keys, sorted; lists and leaves as JSON text", () => {
    const f = loggedFacts("run.wandb", "config", {
      grpo: { seed: 42, loss: { kind: "ppo" } },
      lr: 1e-6,
      stop: ["</s>"],
      empty: {},
      name: "a",
    });
    expect(f?.entries).toEqual([
      { key: "empty", value: "{}" },
      { key: "grpo.loss.kind", value: "ppo" },
      { key: "grpo.seed", value: "42" },
      { key: "lr", value: "0.000001" },
      { key: "name", value: "a" },
      { key: "stop", value: '["</s>"]' },
    ]);
    expect(loggedFacts("x", "config", {})).toBeNull();
  });

  it("cuts a long value and counts what a long list leaves out", () => {
    const f = loggedFacts("x", "params", { prompt: "p".repeat(2000), ...{ a: 1, b: 2, c: 3 } }, 2);
    expect(f?.entries.map((e) => e.key)).toEqual(["a", "b"]);
    expect(f?.more).toBe(2);
    const long = loggedFacts("x", "params", { prompt: "p".repeat(2000) })!.entries[0]!.value;
    expect(long).toBe(`${"p".repeat(500)}… (2000 characters)`);
  });
});
