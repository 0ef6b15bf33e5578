// A run page never claims a count, a 0 or "healthy" before its index has counted and summarised
// every rollout; the progress is "indexed of total" over the rollouts the index serves.
import { describe, expect, it } from "vitest";
import type { IndexProgress } from "@/lib/schema/api-runs";
import {
  noAlertsWords,
  indexState,
  noAlertsClaim,
  pollDelayMs,
  progressWords,
  tableCountWords,
} from "./index-state";

const progress = (over: Partial<IndexProgress>): IndexProgress => ({
  done: 0,
  total: 0,
  running: false,
  error: null,
  last_ms: null,
  workers: 0,
  in_workers: 0,
  from_records: 0,
  replacing: 0,
  records_read: null,
  ...over,
});

describe("indexState", () => {
  it("is counting before the index's first listing: nothing running, nothing held, never refreshed", () => {
    expect(indexState(progress({}), 0, true)).toEqual({ kind: "counting" });
  });

  it("is counting while a running index has counted nothing yet: never 'indexing 0 of 0'", () => {
    const started = progress({ running: true, done: 0, total: 0 });
    expect(indexState(started, 0, true)).toEqual({ kind: "counting" });
    expect(progressWords(indexState(started, 0, true))).not.toMatch(/\d/);
  });

  it("is complete for a run with nothing to list (capture off, no records), never counting", () => {
    expect(indexState(progress({}), 0, false)).toEqual({ kind: "complete", indexed: 0 });
  });

  it("counts the rollouts held from the cache and those still to summarise", () => {
    // 9,730 rollouts held (cached and done), 270 stale of which 0 done yet… and a cold one.
    expect(indexState(progress({ running: true, done: 0, total: 270 }), 9_730, true)).toEqual({
      kind: "indexing",
      indexed: 9_730,
      total: 10_000,
      fromRecords: 0,
      replacing: 0,
      recordsRead: null,
    });
    expect(indexState(progress({ running: true, done: 270, total: 10_000 }), 270, true)).toEqual({
      kind: "indexing",
      indexed: 270,
      total: 10_000,
      fromRecords: 0,
      replacing: 0,
      recordsRead: null,
    });
  });

  it("counts a row standing in from a record once, as still to do (records first)", () => {
    // 10,000 store rollouts, all with records: every row stands in at once, 270 read since.
    const p = progress({ running: true, done: 270, total: 10_000, from_records: 9_730 });
    expect(indexState(p, 10_000, true)).toEqual({
      kind: "indexing",
      indexed: 270,
      total: 10_000,
      fromRecords: 9_730,
      replacing: 0,
      recordsRead: null,
    });
    // Before any store is read: nothing indexed from a store, every row from its record.
    const first = progress({ running: true, done: 0, total: 10_000, from_records: 10_000 });
    expect(indexState(first, 10_000, true)).toMatchObject({ indexed: 0, total: 10_000 });
  });

  it("counts a rollout summarised again once: its old row is shown until replaced", () => {
    // A live run of one rollout, indexed, then grown by a call: 1 row held, 1 stale with a row.
    const p = progress({ running: true, done: 0, total: 1, replacing: 1 });
    const live = indexState(p, 1, true);
    expect(live).toEqual({
      kind: "indexing",
      indexed: 0,
      total: 1,
      fromRecords: 0,
      replacing: 1,
      recordsRead: null,
    });
    expect(tableCountWords(1, live)).toBe("1 of 1 indexed so far (1 rollout in the run)");
    // 10,000 held, 270 of them grown and 30 new: 10,030 in the run, not 10,300.
    const grown = indexState(progress({ running: true, total: 300, replacing: 270 }), 10_000, true);
    expect(grown).toMatchObject({ indexed: 9_730, total: 10_030, replacing: 270 });
    expect(tableCountWords(5, grown)).toBe(
      "5 of 10,000 indexed so far (10,030 rollouts in the run)",
    );
  });

  it("is complete once a refresh ran (last_ms) or rollouts are held, even with nothing stale", () => {
    const done = progress({ done: 10_000, total: 10_000, last_ms: 4200 });
    expect(indexState(done, 10_000, true)).toEqual({ kind: "complete", indexed: 10_000 });
    // A warm re-open (every row from the cache, nothing stale) reports no refresh time.
    expect(indexState(progress({}), 24, true)).toEqual({ kind: "complete", indexed: 24 });
  });

  it("is not counting when the index reports an error (the page shows the error instead)", () => {
    expect(indexState(progress({ error: "EACCES" }), 0, true).kind).toBe("complete");
  });
});

describe("the words and claims", () => {
  const indexing = {
    kind: "indexing",
    indexed: 270,
    total: 10_000,
    fromRecords: 0,
    replacing: 0,
    recordsRead: null,
  } as const;
  const standing = { ...indexing, fromRecords: 9_730 } as const;
  const complete = { kind: "complete", indexed: 10_000 } as const;

  it("says indexing N of M, counting, or indexed", () => {
    expect(progressWords(indexing)).toBe("indexing 270 of 10,000 rollouts");
    expect(progressWords(standing)).toBe(
      "indexing 270 of 10,000 rollouts; 9,730 shown from their records until their token stores are read",
    );
    expect(progressWords({ kind: "counting" })).toMatch(/^indexing: counting/);
    expect(progressWords({ kind: "complete", indexed: 1 })).toBe("indexed 1 rollout");
  });

  it("while rollouts.jsonl is read: the rows written of the file's lines, and how much is read", () => {
    // A records-only run of 263,000 lines: 100,000 read (rows written for 99,990 of them).
    const p = progress({ running: true, done: 100_000, total: 263_000, records_read: 0.3796 });
    const reading = indexState(p, 99_990, true);
    expect(reading).toEqual({
      kind: "indexing",
      indexed: 99_990,
      total: 263_000,
      fromRecords: 0,
      replacing: 0,
      recordsRead: 100_000 / 263_000,
    });
    expect(progressWords(reading)).toBe(
      "indexing 99,990 rollouts of rollouts.jsonl's 263,000 lines: 38% read",
    );
    expect(tableCountWords(50, reading)).toBe(
      "50 of 99,990 indexed so far (rollouts.jsonl 38% read)",
    );
    // Never "100% read" before the index ends (its last line is done with the index).
    const nearly = indexState({ ...p, done: 262_999 }, 262_999, true);
    expect(progressWords(nearly)).toMatch(/99% read$/);
    expect(noAlertsClaim(reading, false)).toBe("not_yet");
  });

  it("never reads as a final table count while indexing", () => {
    expect(tableCountWords(270, indexing)).toBe(
      "270 of 270 indexed so far (10,000 rollouts in the run)",
    );
    expect(tableCountWords(5_000, standing)).toBe(
      "5,000 of 10,000 shown so far: 270 indexed, 9,730 from records (10,000 rollouts in the run)",
    );
    expect(noAlertsClaim(standing, false)).toBe("not_yet");
    expect(tableCountWords(12, complete)).toBe("12 of 10,000 rollouts");
    expect(tableCountWords(1, { kind: "complete", indexed: 1 })).toBe("1 of 1 rollout");
    expect(tableCountWords(0, { kind: "counting" })).not.toMatch(/\d/);
  });

  it("says healthy only when every rollout is checked, and never without capture", () => {
    expect(noAlertsClaim(complete, false)).toBe("healthy");
    expect(noAlertsClaim(indexing, false)).toBe("not_yet");
    expect(noAlertsClaim({ kind: "counting" }, false)).toBe("not_yet");
    expect(noAlertsClaim(complete, true)).toBe("no_capture");
  });

  it("polls every half second until the index is complete, then every 10 s", () => {
    expect(pollDelayMs({ kind: "counting" })).toBe(500);
    expect(pollDelayMs(indexing)).toBe(500);
    expect(pollDelayMs(complete)).toBe(10_000);
  });
});

describe("a settled run with no alert", () => {
  it("is called healthy only when no rollout is masked or trained with warnings", () => {
    expect(noAlertsWords({ masked: 0, maskedFraction: 0, warnings: 0 })).toEqual({
      text: "No alerts: nothing masked, and no capture check went past its threshold.",
      ok: true,
    });
  });

  it("counts the masked rollouts under the alert's threshold instead, not in green", () => {
    // The 1M-record scale run: 29,968 of 1,000,000 masked, under the 5% masked-fraction alert.
    expect(
      noAlertsWords({ masked: 29_968, maskedFraction: 29_968 / 1_000_000, warnings: 0 }),
    ).toEqual({
      text: "No alerts: 29,968 rollouts are masked (3.0%), under the 5% that raises one; no other measure went past its threshold.",
      ok: false,
    });
    expect(noAlertsWords({ masked: 1, maskedFraction: 1 / 250, warnings: 0 }).text).toMatch(
      /^No alerts: 1 rollout is masked \(0\.4%\)/,
    );
  });

  it("counts rollouts trained with warnings, not in green (a torn tail under no alert)", () => {
    expect(noAlertsWords({ masked: 0, maskedFraction: 0, warnings: 1 })).toEqual({
      text: "No alerts: nothing masked, but 1 rollout is trained with warnings (their reasons are in the table); no capture check went past its threshold.",
      ok: false,
    });
    expect(noAlertsWords({ masked: 2, maskedFraction: 0.01, warnings: 3 }).text).toContain(
      "under the 5% that raises one; 3 rollouts are trained with warnings",
    );
  });
});
