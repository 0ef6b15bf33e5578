import { readFileSync } from "node:fs";
import path from "node:path";
import { TOKEN_WINDOW } from "@/lib/view/inspector-url";
import { describe, expect, it } from "vitest";
import { toVerdictRow } from "@/lib/builder";
import { buildRollout } from "@/lib/rollout/build";
import { readRolloutCapture } from "@/lib/store";
import { getRun } from "@/lib/runs/root";
import { RUNS_DIR } from "@/fixtures/generate";
import { InvalidInputError, UnknownEntityError } from "@/lib/errors";
import { openRollout, readAll } from "@/lib/testing/inspect-fixture";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import {
  lowProbMatchesSchema,
  segmentedWindowSchema,
  tokenWindowSchema,
} from "@/lib/schema/api-tokens";
import { inspectRollout } from "./rollout-model";
import { firstWindow, lowProbTokens, segmentedWindow, tokenWindow } from "./token-window";

interface RawEntry {
  requested_model: string;
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs: number[];
}

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

  it("a linear rollout's main window is the token file's own sequence, masked at each generation", async () => {
    // Expected values from the fixture file alone, not from the builder: in these rollouts every
    // policy call's prompt extends the previous call's prompt and generation (checked here), so the
    // trained sequence is the last call's prompt + generation, mask 1 exactly at each generation.
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    for (const id of ["12-0", "13-0"]) {
      const raw = readFileSync(path.join(run.tokensDir!, `${id}.tokens.jsonl`), "utf8");
      const policy = raw
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as RawEntry)
        .filter((e) => !e.requested_model.toLowerCase().includes("haiku"))
        .sort((a, b) => a.prompt_token_ids.length - b.prompt_token_ids.length);
      let ids: number[] = [];
      const mask: number[] = [];
      const lps: (number | null)[] = [];
      for (const e of policy) {
        expect(e.prompt_token_ids.slice(0, ids.length)).toEqual(ids);
        for (let k = ids.length; k < e.prompt_token_ids.length; k++) {
          mask.push(0);
          lps.push(null);
        }
        ids = [...e.prompt_token_ids, ...e.generation_token_ids];
        for (const lp of e.generation_log_probs) {
          mask.push(1);
          lps.push(lp);
        }
      }
      const all = readAll(await inspectRollout(run, id), "main");
      expect(all.ids).toEqual(ids);
      expect(all.mask).toEqual(mask);
      expect(all.lps).toEqual(lps);
    }
  });

  it("decodes pieces with the run's tokenizer and marks call boundaries", async () => {
    const model = await openRollout("claude-code-capture-on", "12-0");
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
    // The page's window is the one holding the URL's position (windows start at multiples of it).
    const start = Math.floor(2345 / TOKEN_WINDOW) * TOKEN_WINDOW;
    const page = segmentedWindowSchema.parse(firstWindow(model, null, 2345));
    expect(page).toMatchObject({
      sequence: "main",
      offset: start,
      total: 3505,
      segments: opening.segments,
    });
    expect(page.segments.map((s) => [s.call, s.kind, s.start, s.length])).toEqual([
      ["a", "prompt", 0, 3000],
      ["a", "generated", 3000, 3],
      ["b", "interstitial", 3003, 500],
      ["b", "generated", 3503, 2],
    ]);
    expect(page.tokens.id).toEqual(
      [...promptA, ...genA, ...inter, ...genB].slice(start, start + TOKEN_WINDOW),
    );
    expect(firstWindow(model, "call:a", null)).toMatchObject({
      sequence: "call:a",
      offset: 0,
      total: 3003,
    });
    expect(firstWindow(model, "branch-9", null)).toBeNull(); // the client asks and shows the 404
  });

  it("a single call's window is its prompt as input and its generation as output", async () => {
    const model = await openRollout("claude-code-capture-on", "12-0");
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
    const model = await openRollout("claude-code-capture-on", "12-0");
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
    const model = await openRollout("claude-code-capture-on", "12-0");
    expect(() => tokenWindow(model, "main", "-1", null)).toThrow(
      /offset must be a non-negative integer/,
    );
    expect(() => tokenWindow(model, "branch-7", null, null)).toThrow(UnknownEntityError);
    expect(() => tokenWindow(model, "call:nope", null, null)).toThrow(/no call nope/);
    expect(tokenWindow(model, "main", "99999999", "10").tokens.id).toEqual([]);
  });
});
