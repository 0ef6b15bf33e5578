// Token ids outside 0 … 2^31−1 under gym-v1: the inspector describes the entries Gym trains on
// (the gym-v1 read's, with their lines), and its token windows carry every such id with its exact
// digits. Expected values come from each case's expected.jsonl (Gym main's own answer) and from the
// token file's text, read here independently; the seed profile still refuses those lines.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs/root";
import { rolloutViewSchema } from "@/lib/schema/api-rollout";
import { segmentedWindowSchema, type SegmentedWindow } from "@/lib/schema/api-tokens";
import { rolloutSeverity } from "@/lib/view/rollout-severity";
import { callDetail } from "./call-detail";
import { inspectRollout } from "./rollout-model";
import { lowProbTokens, segmentedWindow, tokenWindow } from "./token-window";

const CASES = path.resolve("fixtures/gym-v1-cases");
const OUTSIDE_CASES = ["negative-token-id", "token-id-2-pow-60"];
const MAX_ID = 2n ** 31n - 1n;
const root = mkdtempSync(path.join(os.tmpdir(), "gym-outside-ids-"));

/** A run `name` of its own whose token store is a copy of `from`, or holds `files`. */
function makeRun(name: string, from: string | null, files: Record<string, string> = {}): string {
  const tokens = path.join(root, name, "tokens");
  mkdirSync(tokens, { recursive: true });
  writeFileSync(
    path.join(root, name, "run.json"),
    JSON.stringify({ name, builder_profile: "gym-v1" }),
  );
  if (from !== null) cpSync(from, tokens, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(path.join(tokens, f), text);
  return tokens;
}

async function open(run: string, profile: "seed" | "gym-v1" | "auto" = "gym-v1") {
  const model = await inspectRollout(await getRun(run, root), "r0", { profile });
  rolloutViewSchema.parse(model.view);
  return model;
}

/** The items of `"key": [ … ]` in a JSON line's text, as written (digits kept exact). */
function rawList(text: string, key: string): string[] {
  const m = new RegExp(`"${key}":\\s*\\[([^\\]]*)\\]`).exec(text);
  return m ? (m[1] as string).split(",").map((s) => s.trim()) : [];
}

const isOutside = (digits: string) => BigInt(digits) < 0n || BigInt(digits) > MAX_ID;

/** Every outside id of a token file: call, 1-based line and exact digits, from the file's text. */
function outsideInFile(file: string) {
  const out: Array<{ call: string; line: number; digits: string }> = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() === "") return;
      const call = (JSON.parse(text) as { model_call_id: string }).model_call_id;
      for (const key of ["prompt_token_ids", "generation_token_ids"])
        for (const d of rawList(text, key))
          if (isOutside(d)) out.push({ call, line: i + 1, digits: d });
    });
  return out;
}

/** The window's ids as decimal digits: an outside id's exact digits, every other id as it is. */
function digitsOf(w: SegmentedWindow): string[] {
  const exact = new Map(w.tokens.outside);
  return w.tokens.id.map((id, k) => (exact.has(k) ? String(exact.get(k)) : String(id)));
}

/** Line of each call in the token file, found in its text. */
function linesOf(file: string): Map<string, number> {
  const lines = new Map<string, number>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() !== "")
        lines.set((JSON.parse(text) as { model_call_id: string }).model_call_id, i + 1);
    });
  return lines;
}

describe.each(OUTSIDE_CASES)("gym-v1 case %s in the inspector", (name) => {
  const tokens = makeRun(name, path.join(CASES, name));
  const file = path.join(tokens, "r0.tokens.jsonl");
  const expectedText = readFileSync(path.join(CASES, name, "expected.jsonl"), "utf8").trim();
  const expected = JSON.parse(expectedText) as {
    mask_sample: boolean;
    main: { call_ids: string[]; loss_mask: number[]; log_probs: Array<number | null> };
  };
  const expectedDigits = rawList(expectedText, "token_ids");

  it.each(["gym-v1", "auto"] as const)(
    "--profile %s: main chain and tokens as Gym trains",
    async (p) => {
      const model = await open(name, p);
      const { view } = model;
      expect(view.profile).toBe("gym-v1");
      expect(view.verdict.mask_sample).toBe(expected.mask_sample);
      expect(view.chains.find((c) => c.chain_id === "main")?.call_ids).toEqual(
        expected.main.call_ids,
      );
      const mainCalls = (model.chainCalls.get("main") ?? []).map((i) => view.calls[i]);
      expect(mainCalls.map((c) => c?.model_call_id)).toEqual(expected.main.call_ids);
      const lines = linesOf(file);
      for (const c of mainCalls) {
        expect(c?.role).toBe("main");
        expect(c?.line).toBe(lines.get(c?.model_call_id ?? ""));
      }

      const w = segmentedWindowSchema.parse(segmentedWindow(model, "main", "0", "5000"));
      expect(w.total).toBe(expectedDigits.length);
      expect(digitsOf(w)).toEqual(expectedDigits);
      expect(w.tokens.mask).toEqual(expected.main.loss_mask);
      expect(w.tokens.log_prob).toEqual(expected.main.log_probs);
      // Each outside id is sent marked, with words saying what it is, decoder or not.
      const outside = expectedDigits.flatMap((d, k) => (isOutside(d) ? [k] : []));
      expect(w.tokens.outside.map(([k]) => k)).toEqual(outside);
      for (const k of outside) {
        expect(w.tokens.piece?.[k]).toBe("outside");
        const shown = (expectedDigits[k] as string).replace("-", "−");
        expect(w.tokens.text?.[k]).toBe(`⟨id ${shown}: outside any vocabulary⟩`);
      }
    },
  );

  it("the call detail and the call's own sequence hold the same tokens", async () => {
    const model = await open(name);
    for (const id of expected.main.call_ids) {
      const detail = callDetail(model, id);
      expect(detail.call?.line).toBe(linesOf(file).get(id));
    }
    const last = expected.main.call_ids[expected.main.call_ids.length - 1] as string;
    const w = segmentedWindowSchema.parse(segmentedWindow(model, `call:${last}`, "0", "5000"));
    expect(digitsOf(w)).toEqual(expectedDigits);
  });

  it("raises the outside-vocabulary warning with the count, the call and the line", async () => {
    const { view } = await open(name);
    const inFile = outsideInFile(file);
    expect(inFile.length).toBeGreaterThan(0);
    expect(view.oov_tokens).toBe(inFile.length);
    const reasons = rolloutSeverity(view).reasons;
    const oov = reasons.find((r) => r.code === "out_of_vocabulary");
    const first = inFile[0]!;
    // The banner's sentence names the first id, its call and its line (read from the file here).
    expect(oov?.sentence).toContain(
      `first: id ${first.digits} in call ${first.call}, line ${first.line}`,
    );
    expect(
      view.read.lifecycle?.outside_ids.map((o) => ({
        call: o.model_call_id,
        line: o.line,
        digits: o.digits,
      })),
    ).toEqual(inFile);
    for (const o of inFile)
      expect(view.read.issues).toContainEqual(
        expect.objectContaining({
          line: o.line,
          severity: "warning",
          message: expect.stringContaining(`token id ${o.digits} `),
        }),
      );
  });

  it("the seed profile still refuses the line", async () => {
    const { view } = await open(name, "seed");
    expect(view.profile).toBe("seed");
    expect(view.verdict.mask_sample).toBe(true);
    expect(view.verdict.error).toMatch(/^ValidationError: .*non-negative integers/);
    expect(view.chains).toEqual([]);
    expect(view.calls).toEqual([]);
  });
});

describe("every gym-v1 case in the inspector, against Gym main's answer", () => {
  const names = readdirSync(CASES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it.each(names)("%s: main chain calls and torn tail", async (name) => {
    makeRun(`all-${name}`, path.join(CASES, name));
    const exp = JSON.parse(readFileSync(path.join(CASES, name, "expected.jsonl"), "utf8")) as {
      main: { call_ids: string[] } | null;
      torn_tail: boolean;
    };
    const { view } = await open(`all-${name}`);
    const main = view.chains.find((c) => c.chain_id === "main")?.call_ids ?? [];
    expect(main).toEqual(exp.main?.call_ids ?? []);
    const described = new Map(view.calls.map((c) => [c.model_call_id, c.role]));
    for (const id of main) expect(described.get(id)).toBe("main");
    expect(view.read.torn_tail).toBe(exp.torn_tail);
  });
});

describe("an id past 2^53 in a two-call chain, with no state.json", () => {
  const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse rounds it to 2^53
  const record = (id: string, prompt: string, gen: string, at: number) =>
    `{"created_at":${at},"generation_log_probs":[${gen
      .split(",")
      .map(() => "-0.5")
      .join(
        ",",
      )}],"generation_token_ids":[${gen}],"model":"m","model_call_id":"${id}","output_items":[],"prompt_token_ids":[${prompt}],"rollout_id":"r0","routed_experts":null,"schema_version":1,"token_item_index":null}\n`;
  const text =
    record("c1", "1,2,-1", `${BIG},5`, 1786000000) +
    record("c2", `1,2,-1,${BIG},5,7`, "8", 1786000001);
  const tokens = makeRun("past-2-pow-53", null, { "r0.tokens.jsonl": text });
  const want = ["1", "2", "-1", BIG, "5", "7", "8"];

  it("keeps the file's digits in every window, however the windows fall", async () => {
    const model = await open("past-2-pow-53");
    expect(model.view.chains[0]?.call_ids).toEqual(["c1", "c2"]);
    expect(model.view.calls.map((c) => c.line)).toEqual([1, 2]);
    const all: string[] = [];
    for (let off = 0; off < want.length; off += 2) {
      const w = tokenWindow(model, "main", String(off), "2");
      const exact = new Map(w.tokens.outside);
      all.push(...w.tokens.id.map((id, k) => (exact.has(k) ? String(exact.get(k)) : String(id))));
    }
    expect(all).toEqual(want);
    expect(model.view.oov_tokens).toBe(2); // c2 inherits c1's tokens: counted once
    const low = lowProbTokens(model, "main", "-0.1", null).matches;
    expect(low.map((m) => m.pos)).toEqual([3, 4, 6]);
    expect(low[0]?.text).toBe(`⟨id ${BIG}: outside any vocabulary⟩`);
    expect(model.view.read.lifecycle?.outside_ids.map((o) => o.digits)).toEqual(
      outsideInFile(path.join(tokens, "r0.tokens.jsonl")).map((o) => o.digits),
    );
  });

  it("the model's tokens survive a structured clone (the worker's transfer) without the decoder", async () => {
    const model = await open("past-2-pow-53");
    const copy = structuredClone({ ...model, decoder: null });
    expect(copy.tokens).toEqual(model.tokens);
    expect(copy.tokens[0]?.gen).toBeInstanceOf(Int32Array);
    const w = tokenWindow({ ...copy, decoder: model.decoder }, "main", "0", null);
    expect(new Map(w.tokens.outside).get(3)).toBe(BIG);
  });
});
