// A final line unreadable by its bytes, ending in a newline: invalid UTF-8, or a NUL-filled region.
// Gym main's freeze drops any last line that does not parse, with only whitespace after it, as a
// torn tail and trains on the rest (docs/gym-v1-store.md §2); the seed reader refuses it as damage. The
// store is the gym-v1 case newline-terminated-garbage-tail with its garbage line replaced, so the
// gym-v1 answer is that case's expected.jsonl (Gym main's own consumer on it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decideVerdict, toVerdictRow, type Profile } from "@/lib/builder";
import { fingerprintDir, tempStore } from "@/lib/testing/temp-store";
import { readRolloutCapture } from "./token-store";

const CASE = path.resolve("fixtures/gym-v1-cases/newline-terminated-garbage-tail");
const INDEXED = 253; // the case's state.json indexed_size: the c1 line and its newline
const head = readFileSync(path.join(CASE, "r0.tokens.jsonl")).subarray(0, INDEXED);
const state = readFileSync(path.join(CASE, "r0.tokens.state.json"));
const expected = JSON.parse(readFileSync(path.join(CASE, "expected.jsonl"), "utf8")) as {
  mask_sample: boolean;
  error: string | null;
  torn_tail: boolean;
  main: { call_ids: string[]; loss_mask: number[] };
};

const TAILS = {
  "invalid UTF-8": Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
  "NUL-filled": Buffer.concat([Buffer.alloc(4096), Buffer.from("\n")]),
  "NUL-filled, no newline": Buffer.alloc(4096),
};

async function decide(tail: Buffer, profile: Profile, withState = true) {
  const files: Record<string, Buffer | string> = { "r0.tokens.jsonl": Buffer.concat([head, tail]) };
  if (withState) Object.assign(files, { "r0.tokens.state.json": state, "r0.tokens.lock": "" });
  const dir = tempStore(files);
  const before = fingerprintDir(dir);
  const c = await readRolloutCapture(dir, "r0");
  expect(fingerprintDir(dir)).toEqual(before);
  return { c, row: toVerdictRow(decideVerdict(c.snapshot, { profile })) };
}

describe.each(Object.entries(TAILS))("a final line that is %s", (_, tail) => {
  it.each([true, false])(
    "gym-v1 (state.json: %s): a torn tail, trained on the rest as Gym main's freeze does",
    async (withState) => {
      const { c, row } = await decide(tail, "gym-v1", withState);
      expect(row.mask_sample).toBe(expected.mask_sample);
      expect(row.error).toBe(expected.error);
      expect(row.torn_tail).toBe(expected.torn_tail);
      expect(row.main?.call_ids).toEqual(expected.main.call_ids);
      expect(row.main?.loss_mask).toEqual(expected.main.loss_mask);
      expect(c.lifecycle.tornTail).toEqual({ offset: INDEXED, bytes: tail.length });
      // Never silent: the seed reader's refusal of the line is still listed.
      expect(c.issues.some((i) => i.severity === "error" && i.line === 2)).toBe(true);
    },
  );

  it("seed: damage, masked with the line named", async () => {
    const { row } = await decide(tail, "seed");
    expect(row.mask_sample).toBe(true);
    expect(row.error).toMatch(/r0\.tokens\.jsonl: line 2: (holds NUL bytes|not valid UTF-8)/);
  });
});

describe("an unreadable line Gym does not drop", () => {
  it("is corrupt under gym-v1 when more content follows it", async () => {
    const tail = Buffer.concat([TAILS["NUL-filled"], head]);
    const { row } = await decide(tail, "gym-v1");
    expect(row.mask_sample).toBe(true);
    expect(row.error).toMatch(/^JSONDecodeError/);
  });

  it("fails the entry read under gym-v1 when the index already covers it", async () => {
    const tail = TAILS["invalid UTF-8"];
    const indexed = JSON.stringify({
      ...JSON.parse(state.toString("utf8")),
      indexed_size: INDEXED + tail.length,
    });
    const c = await readRolloutCapture(
      tempStore({
        "r0.tokens.jsonl": Buffer.concat([head, tail]),
        "r0.tokens.state.json": indexed,
      }),
      "r0",
    );
    const row = toVerdictRow(decideVerdict(c.snapshot, { profile: "gym-v1" }));
    expect(row.mask_sample).toBe(true);
    expect(row.torn_tail).toBe(false);
  });
});
