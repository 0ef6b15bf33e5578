import path from "node:path";
import { describe, expect, it } from "vitest";
import { toVerdictRow } from "@/lib/builder";
import { buildRollout } from "@/lib/runs/build-rollout";
import { readRolloutCapture } from "@/lib/store";
import { getRun } from "@/lib/runs/runs-root";
import { RUNS_DIR } from "@/fixtures/generate";
import { InvalidRolloutIdError } from "@/lib/store/rollout-id";
import { InvalidInputError, UnknownEntityError } from "@/lib/errors";
import { fingerprintDir, line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { rolloutViewSchema } from "@/lib/schema/api-rollout";
import {
  lowProbMatchesSchema,
  segmentedWindowSchema,
  tokenWindowSchema,
} from "@/lib/schema/api-tokens";
import { callDetailSchema } from "@/lib/schema/api-call-detail";
import type { RolloutModel } from "./model";
import { inspectRollout } from "./rollout-model";
import { firstWindow, lowProbTokens, segmentedWindow, tokenWindow } from "./token-window";
import { callDetail } from "./call-detail";

/** The model of a fixture rollout; its view must be exactly what the wire contract says. */
async function open(runId: string, rollout: string, profile?: "seed" | "gym-v1" | "auto") {
  const model = await inspectRollout(await getRun(runId, RUNS_DIR), rollout, { profile });
  rolloutViewSchema.parse(model.view);
  return model;
}

/** The whole sequence, fetched window by window as the page does. */
function readAll(model: RolloutModel, sequence: string, size = 997) {
  const first = segmentedWindowSchema.parse(segmentedWindow(model, sequence, "0", String(size)));
  const ids = [...first.tokens.id],
    mask = [...first.tokens.mask],
    lps = [...first.tokens.log_prob];
  for (let off = size; off < first.total; off += size) {
    const w = tokenWindowSchema.parse(tokenWindow(model, sequence, String(off), String(size)));
    ids.push(...w.tokens.id);
    mask.push(...w.tokens.mask);
    lps.push(...w.tokens.log_prob);
  }
  return { total: first.total, ids, mask, lps, segments: first.segments };
}

describe("rollout view on the claude-code run", () => {
  it("labels side calls with their reason and marks the main chain", async () => {
    const { view } = await open("claude-code-capture-on", "12-0");
    const sides = view.calls.filter((c) => c.role === "side_call");
    expect(sides).toHaveLength(2);
    expect(
      sides.every((c) => c.side_call?.kind === "pattern" && c.side_call.pattern === "haiku"),
    ).toBe(true);
    const main = view.calls.filter((c) => c.role === "main");
    expect(main.length).toBeGreaterThan(1);
    expect(main[0]).toMatchObject({ parent_call_id: null, link: "root", inherited_len: 0 });
    for (const c of main.slice(1)) expect(c.inherited_len + c.interstitial_len).toBe(c.prompt_len);
    expect(view.chains).toHaveLength(1);
    expect(view.verdict.mask_sample).toBe(false);
    expect(main.every((c) => c.exchange?.status_code === 200 && c.exchange.latency_ms! > 0)).toBe(
      true,
    );
  });

  it("a compaction shows two roots and a prefix break that is not a drift", async () => {
    const { view } = await open("claude-code-capture-on", "0-0");
    expect(view.calls.filter((c) => c.link === "root").length).toBe(2);
    expect(view.prefix_breaks).toHaveLength(1);
    const br = view.prefix_breaks[0]!;
    expect(br.kind).toBe("compaction");
    expect(br.shared).toBeGreaterThan(0);
    expect(br.root_side).not.toEqual(br.against_side);
    expect(view.chains.map((c) => c.chain_id)).toEqual(["main", "branch-0"]);
    expect(view.main_rule.rule).toBe("generated_mass");
    expect(view.chains[0]!.generated).toBeGreaterThanOrEqual(view.chains[1]!.generated);
  });

  it("a sub-agent is a branch, retries are kept, dropped or unresolved", async () => {
    expect(
      (await open("claude-code-capture-on", "1-0")).view.calls.some((c) => c.role === "branch"),
    ).toBe(true);
    const resolved = (await open("claude-code-capture-on", "2-0")).view;
    expect(resolved.calls.filter((c) => c.retry === "dropped").map((c) => c.role)).toEqual([
      "quarantined",
    ]);
    expect(resolved.calls.some((c) => c.retry === "kept" && c.role === "main")).toBe(true);
    const unresolved = (await open("claude-code-capture-on", "3-0")).view;
    expect(unresolved.verdict.mask_reasons).toEqual(["unresolved_retry"]);
    expect(unresolved.calls.filter((c) => c.retry === "unresolved")).toHaveLength(2);
  });

  it("says when the other profile decides differently", async () => {
    const { view } = await open("claude-code-capture-on", "0-0");
    expect(view.profile).toBe("seed");
    expect(view.other_profile?.verdict.profile).toBe("gym-v1");
    expect(view.other_profile?.differs).toBe(true); // gym-v1 masks several roots or picks the earliest root
    const clean = (await open("claude-code-capture-on", "12-0")).view;
    expect(clean.other_profile?.summary).toMatch(/^gym-v1 /);
  });
});

describe("token windows", () => {
  it("concatenated windows of main equal the CLI's flattened main chain", async () => {
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    for (const id of ["0-0", "1-0", "12-0"]) {
      const model = await inspectRollout(run, id);
      const { verdict } = await buildRollout(run.tokensDir!, id, {
        profile: "seed",
        sideCallPatterns: run.manifest.side_call_patterns,
      });
      const main = toVerdictRow(verdict).main!;
      const all = readAll(model, "main");
      expect(all.total).toBe(main.token_ids.length);
      expect(all.ids).toEqual(main.token_ids);
      expect(all.mask).toEqual(main.loss_mask);
      expect(all.lps).toEqual(main.log_probs);
      expect(all.mask.filter((m) => m === 1).length).toBe(
        verdict.metrics.generated_tokens_delivered,
      );
    }
  });

  it("decodes pieces with the run's tokenizer and marks call boundaries", async () => {
    const model = await open("claude-code-capture-on", "12-0");
    const w = segmentedWindow(model, "main", "0", "50");
    expect(w.decoded).toBe(true);
    expect(w.tokens.text![0]).toBe("<|im_start|>");
    expect(w.tokens.piece![0]).toBe("special");
    expect(w.tokens.text!.join("")).toContain("system\n");
    expect(w.segments[0]).toMatchObject({ kind: "prompt", start: 0 });
    expect(w.segments.map((s) => s.kind)).toContain("interstitial");
    for (let k = 1; k < w.segments.length; k++)
      expect(w.segments[k]!.start).toBe(w.segments[k - 1]!.start + w.segments[k - 1]!.length);
  });

  it("sends segments only with the window that opens a sequence; the page's window holds the URL's position", async () => {
    const promptA = Array.from({ length: 3000 }, (_, i) => i);
    const genA = [7, 7, 7];
    const inter = Array.from({ length: 500 }, (_, i) => 5000 + i);
    const genB = [8, 8];
    const dir = tempStore({
      "w-0.tokens.jsonl":
        line(tokenRecord("w-0", "a", promptA, genA, { created_at: 1 })) +
        line(tokenRecord("w-0", "b", [...promptA, ...genA, ...inter], genB, { created_at: 2 })),
    });
    const model = await inspectRollout(await getRun(path.basename(dir), path.dirname(dir)), "w-0");
    const opening = segmentedWindow(model, "main", "0", "10");
    const later = tokenWindow(model, "main", "10", "10");
    expect(tokenWindowSchema.safeParse(opening).success).toBe(false); // strict: a plain window has no segments
    expect(segmentedWindowSchema.safeParse(later).success).toBe(false);
    const page = segmentedWindowSchema.parse(firstWindow(model, null, 2345));
    expect(page).toMatchObject({
      sequence: "main",
      offset: 2000,
      total: 3505,
      segments: opening.segments,
    });
    expect(page.segments.map((s) => [s.call, s.kind, s.start, s.length])).toEqual([
      ["a", "prompt", 0, 3000],
      ["a", "generated", 3000, 3],
      ["b", "interstitial", 3003, 500],
      ["b", "generated", 3503, 2],
    ]);
    expect(page.tokens.id).toEqual([...promptA, ...genA, ...inter, ...genB].slice(2000));
    expect(firstWindow(model, "call:a", null)).toMatchObject({
      sequence: "call:a",
      offset: 0,
      total: 3003,
    });
    expect(firstWindow(model, "branch-9", null)).toBeNull(); // the client asks and shows the 404
  });

  it("a single call's window is its prompt as input and its generation as output", async () => {
    const model = await open("claude-code-capture-on", "12-0");
    const call = model.view.calls.filter((c) => c.role === "main")[2]!;
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    const entry = (await readRolloutCapture(run.tokensDir!, "12-0")).snapshot.entries.find(
      (e) => e.model_call_id === call.model_call_id,
    )!;
    const all = readAll(model, `call:${call.model_call_id}`, 500);
    expect(all.ids).toEqual([...entry.prompt_token_ids, ...entry.generation_token_ids]);
    expect(all.mask).toEqual([
      ...entry.prompt_token_ids.map(() => 0),
      ...entry.generation_token_ids.map(() => 1),
    ]);
    expect(all.segments.at(-1)).toMatchObject({ kind: "generated", call: call.model_call_id });
    expect(all.segments.some((s) => s.kind === "inherited")).toBe(true);
  });

  it("finds low-probability generated tokens", async () => {
    const model = await open("claude-code-capture-on", "12-0");
    const all = readAll(model, "main");
    const expected = all.lps
      .map((lp, pos) => [lp, pos] as const)
      .filter(([lp]) => lp !== null && lp < -2)
      .map(([, pos]) => pos);
    const low = lowProbMatchesSchema.parse(lowProbTokens(model, "main", "-2", "5000"));
    expect(low.total).toBe(expected.length);
    expect(low.matches.map((m) => m.pos)).toEqual(expected);
    expect(() => lowProbTokens(model, "main", "abc", null)).toThrow(InvalidInputError);
  });

  it("rejects bad windows and unknown sequences with a message", async () => {
    const model = await open("claude-code-capture-on", "12-0");
    expect(() => tokenWindow(model, "main", "-1", null)).toThrow(
      /offset must be a non-negative integer/,
    );
    expect(() => tokenWindow(model, "branch-7", null, null)).toThrow(UnknownEntityError);
    expect(() => tokenWindow(model, "call:nope", null, null)).toThrow(/no call nope/);
    expect(tokenWindow(model, "main", "99999999", "10").tokens.id).toEqual([]);
  });
});

describe("failed HTTP calls and call detail", () => {
  it("places the 422 after the tool call and summarises its body", async () => {
    const model = await open("opencode-before-fix", "3-0");
    const { view } = model;
    expect(view.calls).toHaveLength(1);
    expect(view.failed).toHaveLength(1);
    expect(view.failed[0]).toMatchObject({
      status_code: 422,
      error_category: "client_error",
      after_call: view.calls[0]!.model_call_id,
    });
    expect(view.failed[0]!.error).toBe(
      "extra_forbidden at body.messages.2.reasoning: Extra inputs are not permitted",
    );
    const detail = callDetailSchema.parse(callDetail(model, view.failed[0]!.model_call_id));
    expect(detail.call).toBeNull();
    expect(detail.exchanges[0]).toMatchObject({ status_code: 422, error_category: "client_error" });
    expect(detail.exchanges[0]!.error_body).toMatchObject({
      detail: [{ type: "extra_forbidden" }],
    });
  });

  it("splits a call's prompt into inherited prefix and interstitial text", async () => {
    const model = await open("opencode-after-fix", "0-0");
    const second = model.view.calls[1]!;
    const d = callDetailSchema.parse(callDetail(model, second.model_call_id));
    expect(d.prompt!.inherited_len).toBe(
      model.view.calls[0]!.prompt_len + model.view.calls[0]!.generated_len,
    );
    expect(d.prompt!.interstitial).toContain("<tool_response>");
    expect(d.prompt!.inherited_tail).toContain("</tool_call>");
    expect(d.generation).toContain("The command printed");
    expect(d.output_items.length).toBeGreaterThan(0);
    expect(d.exchanges[0]).toMatchObject({ status_code: 200, error_body: null });
  });
});

describe("bad input", () => {
  it("unknown and malformed rollout ids", async () => {
    await expect(open("claude-code-capture-on", "99-9")).rejects.toThrow(UnknownEntityError);
    await expect(open("claude-code-capture-on", "../run.json")).rejects.toThrow(
      InvalidRolloutIdError,
    );
    await expect(open("claude-code-capture-on", "a/b")).rejects.toThrow(InvalidRolloutIdError);
  });

  it("a corrupt middle line is a build error naming the line; a re-fed drift is classified as drift; nothing is written", async () => {
    const root = [1, 2, 3, 4, 5, 6, 7, 8];
    const drifted = [1, 2, 3, 9, 9, ...Array.from({ length: 30 }, (_, i) => 100 + i)];
    const original = [1, 2, 3, 4, 5, ...Array.from({ length: 30 }, (_, i) => 100 + i)];
    const dir = tempStore({
      "bad-0.tokens.jsonl":
        line(tokenRecord("bad-0", "a", root, [10])) +
        "{not json\n" +
        line(tokenRecord("bad-0", "b", root, [11])),
      "long-0.tokens.jsonl": line(
        tokenRecord(
          "long-0",
          "a",
          Array.from({ length: 6000 }, (_, i) => i),
          [1, 2],
        ),
      ),
      "drift-0.tokens.jsonl":
        line(
          tokenRecord("drift-0", "a", original.slice(0, 20), original.slice(20), { created_at: 1 }),
        ) + line(tokenRecord("drift-0", "b", drifted, [7, 7], { created_at: 2 })),
    });
    const before = fingerprintDir(dir);
    const run = await getRun(path.basename(dir), path.dirname(dir));
    const bad = await inspectRollout(run, "bad-0");
    expect(bad.view.verdict.error).toMatch(/bad-0\.tokens\.jsonl: line 2: not valid JSON/);
    expect(bad.view.verdict.mask_sample).toBe(true);
    expect(() => tokenWindow(bad, "main", null, null)).toThrow(/has no chain/);
    const drift = await inspectRollout(run, "drift-0");
    expect(drift.view.prefix_breaks).toEqual([
      expect.objectContaining({ kind: "drift", shared: 3, against_call_id: "a" }),
    ]);
    expect(drift.view.tokenizer).toBeNull();
    expect(tokenWindow(drift, "main", null, null).tokens.text).toBeNull();
    const long = await inspectRollout(run, "long-0");
    expect(tokenWindow(long, "main", "0", "999999").tokens.id.length).toBe(5000); // windows are capped
    expect(tokenWindow(long, "main", "5000", "999999").tokens.mask).toEqual([
      ...Array(1000).fill(0),
      1,
      1,
    ]);
    expect(fingerprintDir(dir)).toEqual(before);
  });
});
