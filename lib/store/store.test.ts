import { describe, expect, it } from "vitest";
import {
  listStore,
  readCaptureStore,
  readRolloutCapture,
  joinExchanges,
  InvalidRolloutIdError,
} from "@/lib/store";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";

const r = (id: string, prompt: number[], gen: number[], extra: Record<string, unknown> = {}) =>
  line(tokenRecord("0-0", id, prompt, gen, extra));
const two = r("c1", [1, 2], [3]) + r("c2", [1, 2, 3, 4], [5]);

describe("token store reader", () => {
  it("ignores and reports a torn final line", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": two + '{"rollout_id":"0-0","model_call_id":"c3","prompt_tok',
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.entries.map((e) => e.model_call_id)).toEqual(["c1", "c2"]);
    expect(c.snapshot.tornTail).toBe(true);
    expect(c.snapshot.readError).toBeNull();
    expect(c.issues[0]).toMatchObject({
      line: 3,
      severity: "warning",
      message: expect.stringMatching(/^torn final line/),
    });
  });

  it("accepts a complete final line without a newline", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": two.trimEnd() });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.entries).toHaveLength(2);
    expect(c.snapshot.tornTail).toBe(false);
  });

  it("reports a corrupt middle line as corruption with its file and line number", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": r("c1", [1, 2], [3]) + "{not json\n" + r("c2", [1, 2, 3, 4], [5]),
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.readError).toMatch(
      /^JSONDecodeError: 0-0\.tokens\.jsonl: line 2: not valid JSON/,
    );
  });

  it("skips blank lines and keeps line numbers true", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": "\n" + r("c1", [1, 2], [3]) + "   \n\n" + "[]\n" });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.entryLines).toEqual([2]);
    expect(c.snapshot.readError).toMatch(/line 5: record: /);
  });

  it("treats an empty file and a file of blank lines as no records", async () => {
    const dir = tempStore({ "a.tokens.jsonl": "", "b.tokens.jsonl": "\n\n  \n" });
    for (const id of ["a", "b"]) {
      const c = await readRolloutCapture(dir, id);
      expect(c.snapshot.entries).toEqual([]);
      expect(c.snapshot.readError).toBeNull();
    }
  });

  it("rejects invalid UTF-8 with the line number", async () => {
    const bad = Buffer.concat([
      Buffer.from(r("c1", [1, 2], [3])),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
    ]);
    const c = await readRolloutCapture(tempStore({ "0-0.tokens.jsonl": bad }), "0-0");
    expect(c.snapshot.readError).toBe(
      "UnicodeDecodeError: 0-0.tokens.jsonl: line 2: not valid UTF-8",
    );
  });

  it("refuses a record of a newer schema, naming the version", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl":
        r("c1", [1, 2], [3], { schema_version: 1 }) +
        r("c2", [1, 2, 3, 4], [5], { schema_version: 5 }),
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.readError).toBe(
      "ValidationError: 0-0.tokens.jsonl: line 2: schema_version 5 is newer than this reader supports (1)",
    );
  });

  it("refuses negative or non-integer token ids and missing fields", async () => {
    const cases: Array<[string, RegExp]> = [
      [r("c1", [1, -2], [3]), /prompt_token_ids\.1: token id at index 1 is -2/],
      [r("c1", [1, 2.5], [3]), /token id at index 1 is 2\.5/],
      [
        line({ rollout_id: "0-0", model_call_id: "c1", prompt_token_ids: [1] }),
        /generation_token_ids: /,
      ],
      [
        line({
          rollout_id: "0-0",
          prompt_token_ids: [1],
          generation_token_ids: [],
          generation_log_probs: [],
        }),
        /model_call_id: /,
      ],
    ];
    for (const [text, want] of cases) {
      const c = await readRolloutCapture(tempStore({ "0-0.tokens.jsonl": text }), "0-0");
      expect(c.snapshot.readError).toMatch(/^ValidationError: 0-0\.tokens\.jsonl: line 1: /);
      expect(c.snapshot.readError).toMatch(want);
    }
  });

  it("refuses a token_item_index outside output_items", async () => {
    const c = await readRolloutCapture(
      tempStore({
        "0-0.tokens.jsonl": r("c1", [1], [2], { output_items: [], token_item_index: 0 }),
      }),
      "0-0",
    );
    expect(c.snapshot.readError).toMatch(/token_item_index 0 is outside output_items \(0 items\)/);
  });

  it("keeps log-prob count mismatches for the profile to decide", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl":
        r("c1", [1, 2], [3]) + r("c2", [1, 2, 3, 4], [5, 6], { generation_log_probs: [-1] }),
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.readError).toBeNull();
    expect(c.snapshot.logProbMismatches).toEqual([
      { file: "0-0.tokens.jsonl", line: 2, model_call_id: "c2", log_probs: 1, tokens: 2 },
    ]);
  });

  it("flags duplicate call ids, and conflicting payloads as errors", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": two + r("c1", [1, 2], [3]) + r("c2", [1, 2, 3, 4], [9]),
    });
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.snapshot.conflictingPayloads).toEqual(["c2"]);
    expect(c.issues.map((i) => [i.line, i.severity])).toEqual([
      [3, "warning"],
      [4, "error"],
    ]);
  });

  it("calls the same payload the same whether its line was scanned or parsed whole", async () => {
    // A key written with an escape sends the whole line to JSON.parse (arrays); its twin is
    // scanned (an Int32Array prompt): the payloads are equal, so this is a warning, not a conflict.
    const scanned = r("c1", [1, 2], [3], { note: "n" });
    const parsed = scanned.replace('"note"', '"no\\u0074e"');
    expect(parsed).not.toBe(scanned);
    const c = await readRolloutCapture(tempStore({ "0-0.tokens.jsonl": scanned + parsed }), "0-0");
    expect(c.snapshot.conflictingPayloads).toEqual([]);
    expect(c.issues.map((i) => [i.line, i.severity])).toEqual([[2, "warning"]]);
  });

  it("preserves unknown fields and reads seed-era fields", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": r("c1", [1], [2], {
        ng_generation_replica_id: "r7",
        requested_model: "opus",
        has_tools: true,
      }),
    });
    const e = (await readRolloutCapture(dir, "0-0")).snapshot.entries[0]!;
    expect(e.ng_generation_replica_id).toBe("r7");
    expect(e.requested_model).toBe("opus");
    expect(e.has_tools).toBe(true);
    expect(e.schema_version).toBeUndefined();
  });

  it("validates rollout ids before building any path", async () => {
    const dir = tempStore({});
    for (const bad of ["", "../escape", "a/b", "a b", ".hidden", "%2e%2e"]) {
      await expect(readRolloutCapture(dir, bad)).rejects.toBeInstanceOf(InvalidRolloutIdError);
    }
  });

  it("lists rollouts across both file families and skips invalid names and lock files", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": two,
      "0-0.tokens.lock": "",
      "1-0.capture.jsonl": "",
      "a b.tokens.jsonl": "",
      ".tokens-state-x": "",
    });
    const listing = await listStore(dir, { stat: true });
    expect([...listing.rollouts.keys()]).toEqual(["0-0", "1-0"]);
    expect(listing.rollouts.get("0-0")?.tokens?.size).toBe(Buffer.byteLength(two));
    expect(listing.skipped).toEqual(["a b.tokens.jsonl"]);
  });
});

describe("model-call capture store", () => {
  const exchange = (id: string, status: number, extra: Record<string, unknown> = {}) =>
    line({
      model_call_id: id,
      dialect: "chat",
      status_code: status,
      latency_ms: 812.5,
      error_category: status >= 400 ? "client_error" : null,
      ...extra,
    });

  it("joins exchanges to entries and keeps failed calls that have no entry", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": r("c1", [1, 2], [3]),
      "0-0.capture.jsonl": exchange("c1", 200) + "garbage\n" + exchange("c2", 422),
      "0-0.capture.incomplete": "",
    });
    const cap = await readCaptureStore(dir, "0-0");
    expect(cap.unreadable).toEqual([{ line: 2, reason: expect.stringMatching(/^not valid JSON/) }]);
    expect(cap.incompleteMarker).toBe(true);
    const entries = (await readRolloutCapture(dir, "0-0")).snapshot.entries;
    const join = joinExchanges(entries, cap.exchanges);
    expect(join.byCallId.get("c1")?.[0]?.exchange.status_code).toBe(200);
    expect(
      join.withoutEntry.map((x) => [x.exchange.model_call_id, x.exchange.status_code, x.line]),
    ).toEqual([["c2", 422, 3]]);
  });

  it("reports a missing capture file as absent, not as an error", async () => {
    const cap = await readCaptureStore(tempStore({}), "0-0");
    expect(cap).toMatchObject({ exists: false, exchanges: [], error: null });
  });
});
