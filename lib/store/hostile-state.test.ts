// state.json files a hostile or broken writer leaves: a number too large for any integer, a
// nesting far deeper than orjson reads. Gym main's freeze fails on each with an exception, so the
// rollout is masked with that error; here the read must say the same, never crash or overflow the
// stack. Expected texts are Python's (`int(float("inf"))`) and orjson's limit of 1,024 levels.
import { describe, expect, it } from "vitest";
import { fingerprintDir, tempStore } from "@/lib/testing/temp-store";
import { pythonInt } from "./gym-state";
import { LOADS_RECURSION_LIMIT, parsePyJson } from "./py-json";
import { readRolloutCapture } from "./token-store";

const ENTRY = JSON.stringify({
  schema_version: 1,
  rollout_id: "0-0",
  model_call_id: "c1",
  model: "m",
  prompt_token_ids: [1, 2],
  generation_token_ids: [3],
  generation_log_probs: [-0.1],
  created_at: 1,
});

describe("a state.json version past any integer", () => {
  it("is Python's OverflowError, as int() raises it, and NaN its ValueError", () => {
    const inf = parsePyJson('{"version": 1e999}');
    expect(inf.ok).toBe(true);
    const v = inf.ok && inf.value instanceof Map ? inf.value.get("version") : null;
    expect(v).toBe(Infinity);
    expect(pythonInt(Infinity)).toEqual({
      ok: false,
      error: "OverflowError: cannot convert float infinity to integer",
    });
    expect(pythonInt(NaN)).toEqual({
      ok: false,
      error: "ValueError: cannot convert float NaN to integer",
    });
    expect(pythonInt(12.9)).toEqual({ ok: true, value: BigInt(12) });
  });

  it("masks the rollout's read with that error, the store unchanged", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": `${ENTRY}\n`,
      "0-0.tokens.state.json": '{"frozen": true, "version": 1e999}\n',
    });
    const before = fingerprintDir(dir);
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.gym?.error).toBe("OverflowError: cannot convert float infinity to integer");
    expect(c.lifecycle.storedVersion).toBeNull();
    expect(fingerprintDir(dir)).toEqual(before);
  });
});

describe("a state.json nested deeper than orjson reads", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("reads 1,024 levels and fails at the next, as orjson does", () => {
    expect(parsePyJson(nested(LOADS_RECURSION_LIMIT)).ok).toBe(true);
    const deeper = parsePyJson(nested(LOADS_RECURSION_LIMIT + 1));
    expect(deeper).toEqual({
      ok: false,
      error: "JSONDecodeError: Recursion limit reached: line 1 column 1025 (char 1024)",
    });
    const objects = `${'{"k":'.repeat(LOADS_RECURSION_LIMIT)}{"k":true}${"}".repeat(LOADS_RECURSION_LIMIT)}`;
    expect(parsePyJson(objects).ok).toBe(false);
  });

  it("100,000 levels: the same error, not a stack overflow", async () => {
    expect(parsePyJson(nested(100_000))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^JSONDecodeError: Recursion limit reached/),
    });
    const dir = tempStore({
      "0-0.tokens.jsonl": `${ENTRY}\n`,
      "0-0.tokens.state.json": `${nested(100_000)}\n`,
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.gym?.error).toMatch(/^JSONDecodeError: Recursion limit reached/);
    expect(c.lifecycle.state).toBe("unreadable");
  });
});
