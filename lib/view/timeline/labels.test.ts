import { describe, expect, it } from "vitest";
import type { CallView } from "@/lib/schema/api-rollout";
import { call, exchange, failed } from "@/lib/testing/timeline-calls";
import { buildTimeline, type TimelineRow } from "./rows";

describe("call timeline labels", () => {
  const labelled = (c: CallView) => buildTimeline([c], []).rows[0] as TimelineRow;

  it("a call answered 2xx without a token entry is lost, not failed", () => {
    const rowOf = (status: number) =>
      buildTimeline([call("a", null)], [failed("x", "a", { status_code: status })]).rows[1];
    expect(rowOf(422)).toMatchObject({ role: "failed", label: "failed", tone: "bad" });
    expect(rowOf(200)).toMatchObject({
      role: "lost",
      label: "lost (no token entry)",
      tone: "warn",
    });
  });

  it("names side calls with their reason", () => {
    const pattern = { kind: "pattern", pattern: "haiku" } as const;
    expect(labelled(call("s", null, { role: "side_call", side_call: pattern }))).toMatchObject({
      label: "side call",
      reason: 'requested model matches "haiku"',
      tone: "warn",
    });
    const calibrated = {
      kind: "self_calibration",
      policy_model: "big",
      policy_generated_tokens: 42,
    } as const;
    expect(labelled(call("s", null, { role: "side_call", side_call: calibrated })).reason).toBe(
      "self-calibration: big generated more (42 tokens)",
    );
  });

  it("names retries kept, dropped and unresolved", () => {
    const kept = call("k", null, { retry: "kept", retry_group: 0 });
    expect(labelled(kept)).toMatchObject({ label: "main · retry kept", tone: "ok" });
    const dropped = { role: "quarantined", quarantine: "retry_dropped", retry: "dropped" } as const;
    expect(labelled(call("d", null, { ...dropped, chains: [] }))).toMatchObject({
      label: "retry dropped",
      tone: "bad",
    });
    const unresolved = call("u", null, { retry: "unresolved" });
    expect(labelled(unresolved)).toMatchObject({ label: "main · retry unresolved", tone: "warn" });
  });

  it("names quarantined, excluded and branch calls", () => {
    const ambiguous: Partial<CallView> = { quarantine: "ambiguous_parent", candidates: ["x", "y"] };
    expect(labelled(call("q", null, { role: "quarantined", ...ambiguous }))).toMatchObject({
      label: "quarantined",
      reason: "ambiguous parent: 2 calls share the longest prefix",
    });
    const excluded = call("e", null, { role: "excluded", excluded_reason: "empty generation" });
    expect(labelled(excluded)).toMatchObject({ label: "excluded", reason: "empty generation" });
    const branch = call("b", null, { role: "branch", chains: ["branch-2"] });
    expect(labelled(branch)).toMatchObject({ label: "branch-2", tone: "" });
  });

  it("shows requested and served models, lengths and status", () => {
    const served = exchange({ served_model: "gpt-x-2025", finish_reason: "length", count: 2 });
    const row = { requested_model: "gpt-x", prompt_len: 1234, generated_len: 56, exchange: served };
    expect(labelled(call("m", null, { ...row, model: "entry-model" }))).toMatchObject({
      ...{ requested_model: "gpt-x", served_model: "gpt-x-2025" },
      ...{ prompt_len: 1234, generated_len: 56, status: "200 length ×2", status_ok: true },
    });
    expect(labelled(call("n", null, { requested_model: "", model: "entry-model" }))).toMatchObject({
      ...{ requested_model: null, served_model: "entry-model" },
      ...{ status: "no HTTP log", status_ok: null },
    });
    const error = exchange({ status_code: 500, error_category: "server" });
    expect(labelled(call("h", null, { exchange: error }))).toMatchObject({
      status: "500 server",
      status_ok: false,
    });
  });
});
