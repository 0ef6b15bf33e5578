// Gym main's freeze, read-only: the lifecycle facts of Gym's own example store (its freeze of 0-0 is
// in golden_vectors.json), the cases' torn tail and huge ids, orjson's error text, per-directory
// code-point order, and listings of deleted rollouts and attempts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "@/lib/builder";
import { golden } from "@/lib/testing/golden";
import { fingerprintDir, tempStore } from "@/lib/testing/temp-store";
import { listStore } from "./files";
import { readRolloutCapture } from "./token-store";
import { readGymEntries } from "./gym-freeze";
import { parsePyJson, truthy } from "./py-json";

const CASES = path.resolve("fixtures/gym-v1-cases");

describe("the lifecycle of Gym main's example store", () => {
  // Gym's own freeze of 0-0 when it made the store (golden_vectors.json; not in the typed subset).
  const g = golden().example_token_store_directory_main_v1 as {
    files: Record<string, string>;
    freeze_of_0_0: { snapshot_id: string; version: number; incomplete: boolean };
  };
  const dir = tempStore(g.files);

  it("gives 0-0 the snapshot id and version Gym's own freeze gave it", async () => {
    const before = fingerprintDir(dir);
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.lifecycle).toMatchObject({
      state: "indexed",
      frozen: true,
      retired: false,
      snapshotId: g.freeze_of_0_0.snapshot_id,
      snapshotVersion: g.freeze_of_0_0.version,
      error: null,
      tornTail: null,
    });
    expect(c.lifecycle.indexedSize).toBe(c.lifecycle.fileSize);
    expect(c.lifecycle.intents.dangling).toEqual([]);
    expect(c.snapshot.gym?.incomplete).toBe(g.freeze_of_0_0.incomplete);
    expect(fingerprintDir(dir)).toEqual(before);
  });

  it("reads the same entries as Gym's line-by-line read (the fast path reuses the store read)", async () => {
    const c = await readRolloutCapture(dir, "0-0");
    const bytes = Buffer.from(g.files["0-0.tokens.jsonl"] as string);
    // The store read's prompts are Int32Array views (token-line's arena): compared as lists.
    const lists = c.snapshot.gym?.entries.map((e) => ({
      ...e,
      prompt_token_ids: Array.from(e.prompt_token_ids),
    }));
    expect(lists).toEqual(readGymEntries(bytes, "0-0.tokens.jsonl").entries);
  });

  it("shows a dangling intent, the tombstone, and links the -a1 attempt", async () => {
    const dangling = await readRolloutCapture(dir, "2-0");
    expect(dangling.lifecycle.intents.dangling.length).toBeGreaterThan(0);
    const tomb = await readRolloutCapture(dir, "3-0");
    expect(tomb.lifecycle).toMatchObject({ retired: true, frozen: true });
    expect(tomb.lifecycle.error).toBe("RuntimeError: Token capture for rollout 3-0 is retired");
    const listing = await listStore(dir);
    expect(listing.attempts.get("0-0")).toEqual(["0-0", "0-0-a1"]);
    expect(listing.deleted).toEqual([]);
  });
});

describe("gym-v1 cases, facts beyond the verdict", () => {
  it("reports the torn line Gym would drop, by offset, without touching it", async () => {
    const dir = path.join(CASES, "newline-terminated-garbage-tail");
    const size = readFileSync(path.join(dir, "r0.tokens.jsonl")).length;
    const c = await readRolloutCapture(dir, "r0");
    expect(c.lifecycle.tornTail).toEqual({ offset: 253, bytes: size - 253 });
    expect(c.snapshot.gym?.entries.map((e) => e.model_call_id)).toEqual(["c1"]);
  });

  it("keeps an id past 2^53 with its exact digits and warns", async () => {
    const c = await readRolloutCapture(path.join(CASES, "token-id-2-pow-60"), "r0");
    expect(c.lifecycle.outsideIds).toEqual([
      {
        model_call_id: "c1",
        line: 1,
        field: "generation_token_ids",
        index: 0,
        digits: "1152921504606846976",
      },
    ]);
    expect(
      c.issues.some((i) => i.severity === "warning" && i.message.includes("1152921504606846976")),
    ).toBe(true);
  });

  it("does not cancel an intent with a `-id` line", async () => {
    const c = await readRolloutCapture(path.join(CASES, "cancelled-intent"), "r0");
    expect(c.lifecycle.intents).toEqual({ satisfied: ["c1"], dangling: ["c2", "-c2"] });
  });
});

describe("orjson's reading of state.json", () => {
  it("reports the parser's position as orjson does", () => {
    expect(parsePyJson('{"frozen": tru')).toEqual({
      ok: false,
      error: "JSONDecodeError: invalid literal: line 1 column 12 (char 11)",
    });
  });
  it("reads truthiness as Python does", () => {
    const v = (t: string) => {
      const r = parsePyJson(t);
      return r.ok ? truthy(r.value) : null;
    };
    expect([v("1"), v('"x"'), v("[0]"), v("0"), v("0.0"), v('""'), v("[]"), v("null")]).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("listing", () => {
  it("lists a rollout that only has its lock file as deleted", async () => {
    const dir = tempStore({ "x.tokens.lock": "", "y.tokens.jsonl": "", "y-a2.tokens.jsonl": "" });
    const listing = await listStore(dir);
    expect([...listing.rollouts.keys()]).toEqual(["y", "y-a2"]);
    expect(listing.deleted).toEqual(["x"]);
    expect(listing.attempts.get("y")).toEqual(["y", "y-a2"]);
  });
});

describe("call ids in code-point order", () => {
  it("puts U+FFFF before a character past the Basic Multilingual Plane, as Python does", () => {
    const ids = ["c-\u{1F600}", "c1", "c-\uffff"];
    expect([...ids].sort(compareCodePoints)).toEqual(["c-\uffff", "c-\u{1F600}", "c1"]);
    expect([...ids].sort()).toEqual(["c-\u{1F600}", "c-\uffff", "c1"]); // UTF-16 order differs
  });
});
