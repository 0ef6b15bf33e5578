// The one read-and-decide path: verdicts on Gym main's example store (its files from
// golden_vectors.json, which records how Gym main's writer made them but not the consumer's
// answers: those below are derived by hand from that record and docs/gym-v1-store.md §1–§4; the
// consumer's own answers are checked in cli/gym-v1-cases.test.ts), what a broken file decides, and the parts the inspector and the
// summary index use (model-call store, record, the other profile, found, the rollout's version).
import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toVerdictRow } from "@/lib/builder";
import { rolloutRecordSchema } from "@/lib/schema";
import { golden } from "@/lib/testing/golden";
import { fingerprintDir, line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { buildRollout, rolloutVersion } from "./build";

const r = (id: string, prompt: number[], gen: number[], extra: Record<string, unknown> = {}) =>
  line(tokenRecord("0-0", id, prompt, gen, extra));

describe("buildRollout", () => {
  it("reads Gym main's example store directory with the verdicts its consumer gives", async () => {
    const dir = tempStore(golden().example_token_store_directory_main_v1.files);
    const before = fingerprintDir(dir);
    const rows = [];
    for (const id of ["0-0", "0-0-a1", "1-0", "2-0", "3-0"])
      rows.push(toVerdictRow((await buildRollout(dir, id, { profile: "auto" })).verdict));
    expect(
      rows.map((x) => [x.rollout_id, x.profile, x.mask_sample, x.mask_reasons, x.error]),
    ).toEqual([
      ["0-0", "gym-v1", false, [], null],
      ["0-0-a1", "gym-v1", false, [], null],
      ["1-0", "gym-v1", true, ["capture_incomplete"], null],
      [
        "2-0",
        "gym-v1",
        true,
        ["no_token_records", "capture_incomplete"],
        "capture contains no token records",
      ],
      // The consumer's answer on a retired tombstone (docs/gym-v1-store.md §1): masked, {n_calls: 0}.
      [
        "3-0",
        "gym-v1",
        true,
        ["build_error"],
        "RuntimeError: Token capture for rollout 3-0 is retired",
      ],
    ]);
    expect(fingerprintDir(dir)).toEqual(before);
  });

  it("masks a corrupt line as a build error, and leaves log-prob mismatches to the profile", async () => {
    const corrupt = tempStore({
      "0-0.tokens.jsonl": r("c1", [1, 2], [3]) + "{not json\n" + r("c2", [1, 2, 3, 4], [5]),
    });
    expect((await buildRollout(corrupt, "0-0", { profile: "seed" })).verdict).toMatchObject({
      mask_sample: true,
      mask_reasons: ["build_error"],
    });
    const mismatch = tempStore({
      "0-0.tokens.jsonl":
        r("c1", [1, 2], [3]) + r("c2", [1, 2, 3, 4], [5, 6], { generation_log_probs: [-1] }),
    });
    expect((await buildRollout(mismatch, "0-0", { profile: "seed" })).verdict.error).toBe(
      "ValueError: log-prob/token length mismatch on c2: 1 vs 2",
    );
    expect((await buildRollout(mismatch, "0-0", { profile: "gym-v1" })).verdict.error).toMatch(
      /^ValidationError: 0-0\.tokens\.jsonl: line 2/,
    );
  });

  it("reads the model-call store and the record when given, and decides the other profile on request", async () => {
    // Two roots: seed trains on the heavier chain, gym-v1 masks multiple roots (docs/builder.md).
    const dir = tempStore({
      "0-0.tokens.jsonl":
        r("c1", [1, 2], [3]) + r("c2", [7, 8], [9, 9], { created_at: 1786032155 }),
      "0-0.capture.jsonl": line({
        model_call_id: "c3",
        status_code: 422,
        error_category: "client_error",
      }),
    });
    const source = {
      tokensDir: dir,
      modelCallsDir: dir,
      record: rolloutRecordSchema.parse({ _ng_task_index: 0, _ng_rollout_index: 0, reward: 0.5 }),
    };
    const built = await buildRollout(source, "0-0", { profile: "seed", decideOther: true });
    expect(built).toMatchObject({ found: true, profile: "seed", record: { reward: 0.5 } });
    expect(built.captureStore?.exchanges.map((x) => x.exchange.status_code)).toEqual([422]);
    expect(built.capture.entryLines).toEqual([1, 2]);
    expect(built.verdict.mask_sample).toBe(false);
    expect(built.other).toMatchObject({
      profile: "gym-v1",
      mask_sample: true,
      mask_reasons: expect.arrayContaining(["multiple_roots"]),
    });
    expect((await buildRollout(dir, "0-0", { profile: "seed" })).other).toBeNull();
  });

  it("says when nothing of the rollout exists, and builds a record-only rollout", async () => {
    const dir = tempStore({
      "rollouts.jsonl": line({ _ng_task_index: 4, _ng_rollout_index: 0, reward: 1 }),
    });
    const none = await buildRollout({ tokensDir: dir, modelCallsDir: dir }, "9-9", {
      profile: "seed",
    });
    expect(none.found).toBe(false);
    // The record is the caller's to give: rollouts.jsonl is only versioned here, never read whole.
    const rolloutsFile = path.join(dir, "rollouts.jsonl");
    const unread = await buildRollout({ tokensDir: null, rolloutsFile }, "4-0", {
      profile: "seed",
    });
    expect(unread).toMatchObject({ found: false, record: null });
    const record = rolloutRecordSchema.parse({
      _ng_task_index: 4,
      _ng_rollout_index: 0,
      reward: 1,
    });
    const recordOnly = await buildRollout({ tokensDir: null, rolloutsFile, record }, "4-0", {
      profile: "seed",
    });
    expect(recordOnly).toMatchObject({
      found: true,
      record: { reward: 1 },
      capture: { hasTokenFile: false },
    });
  });

  it("says why the record is missing when the caller could not read it", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": r("c1", [1], [2]) });
    const recordError = "rollouts.jsonl: EIO: i/o error, read";
    const built = await buildRollout({ tokensDir: dir, record: null, recordError }, "0-0", {
      profile: "seed",
    });
    expect(built.capture.issues).toContainEqual({
      file: "rollouts.jsonl",
      line: null,
      severity: "error",
      message:
        "rollouts.jsonl: EIO: i/o error, read: the rollout's record (reward, step) could not be read",
    });
  });

  it("versions the rollout by every one of its files", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": r("c1", [1], [2]) });
    const source = { tokensDir: dir, modelCallsDir: dir, rolloutsFile: null };
    const v1 = await rolloutVersion(source, "0-0");
    expect(await rolloutVersion(source, "0-0")).toBe(v1);
    writeFileSync(path.join(dir, "0-0.tokens.intents"), "c1\n");
    const v2 = await rolloutVersion(source, "0-0");
    expect(v2).not.toBe(v1);
    utimesSync(path.join(dir, "0-0.tokens.jsonl"), new Date(), new Date(Date.now() + 5000));
    expect(await rolloutVersion(source, "0-0")).not.toBe(v2);
  });
});
