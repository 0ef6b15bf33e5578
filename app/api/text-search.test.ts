// `text=` on the rollouts route lists exactly the rollouts whose text holds the query, against the
// search-phrases fixture's truth (fixtures/generator/search-phrases): a phrase split across two
// tokens, Chinese and German text, a tool's output, a failed call's error body, kind: limits, a
// near miss, and characters that are FTS5 syntax elsewhere. Each hit names its call and token.
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pendingTextIn } from "@/lib/index";
import { runCtx, serveRunsRoot } from "@/lib/testing/fixture-runs";
import { SEARCH_RUN, SEARCH_TRUTH } from "@/fixtures/generator/search-phrases";
import { encodeText } from "@/fixtures/generator/conversation";
import { seedEntry } from "@/fixtures/generator/records";
import { Random } from "@/fixtures/generator/random";
import { GET as getTable } from "./runs/[run]/rollouts/route";

const NO_TOKENIZER = "search-no-tokenizer";
const ALL = SEARCH_TRUTH.systemMarker.rollouts;
let root: string;

interface Page {
  total: number;
  rollouts: Array<{ rollout_id: string }>;
  progress: { running: boolean };
  text_hits?: Record<string, { kind: string; call: string; pos: number | null; match: string }>;
  text_search: { tokenizer: string | null; indexed: number; unavailable: string | null };
}

async function page(run: string, qs: string): Promise<Page> {
  const url = `http://localhost/api/runs/${run}/rollouts?limit=100&${qs}`;
  for (let tries = 0; ; tries++) {
    const res = await getTable(new Request(url), runCtx(run));
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as Page;
    if (!body.progress.running) return body;
    expect(tries).toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 100)); // polling the index's progress
  }
}

const found = async (text: string) =>
  (await page(SEARCH_RUN, `text=${encodeURIComponent(text)}`)).rollouts
    .map((r) => r.rollout_id)
    .sort();

/** Appends a call to the rollout's token file: the last call's chain, then `gen`. */
function appendCall(rollout: string, id: string, gen: number[], phrase: string): void {
  const file = path.join(root, SEARCH_RUN, "tokens", `${rollout}.tokens.jsonl`);
  const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1) as string);
  const entry = seedEntry(
    rollout,
    {
      id,
      prompt: [...last.prompt_token_ids, ...last.generation_token_ids],
      gen,
      turn: { text: ` ${phrase}` },
      createdAt: last.created_at + 60,
      requestedModel: last.requested_model,
      servedModel: last.model,
      hasTools: true,
      parentCallId: last.model_call_id,
    },
    new Random(1),
    true,
  );
  appendFileSync(file, JSON.stringify(entry) + "\n");
}

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-node.mjs"]); // the store worker, from this source
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-search-"));
  cpSync(path.resolve("fixtures/runs", SEARCH_RUN), path.join(root, SEARCH_RUN), {
    recursive: true,
  });
  cpSync(path.join(root, SEARCH_RUN), path.join(root, NO_TOKENIZER), { recursive: true });
  const manifest = path.join(root, NO_TOKENIZER, "run.json");
  const withTokenizer = JSON.parse(readFileSync(manifest, "utf8"));
  delete withTokenizer.tokenizer;
  writeFileSync(manifest, JSON.stringify(withTokenizer));
}, 60_000);
serveRunsRoot(() => root);

describe("text= lists exactly the rollouts holding the text", () => {
  it.each(Object.entries(SEARCH_TRUTH))(
    "%s, quoted",
    async (_, t) => {
      expect(await found(`"${t.phrase}"`)).toEqual([...t.rollouts].sort());
    },
    60_000,
  );

  it("matches a phrase across token boundaries, ignoring case", async () => {
    // "Trace" + "back" + " (" + "most" are o200k tokens: the query starts and ends inside them.
    expect(await found('"aceback (mo"')).toEqual(SEARCH_TRUTH.traceback.rollouts);
    expect(await found("TRACEBACK")).toEqual(SEARCH_TRUTH.traceback.rollouts);
    expect(await found("操作")).toEqual(SEARCH_TRUTH.chinese.rollouts); // two characters: no trigram
  });

  it("needs every word, and a phrase as written", async () => {
    expect(await found("traceback ZeroDivisionError")).toEqual(["2-0"]);
    expect(await found('"rm -rf"')).toEqual(SEARCH_TRUTH.command.rollouts);
    expect(await found('"rm -r ./"')).toEqual(SEARCH_TRUTH.nearMiss.rollouts);
    expect(await found('"rm -r"')).toEqual(["0-0", "5-0"]);
  });

  it("limits where with kind:", async () => {
    expect(await found("kind:input traceback")).toEqual(SEARCH_TRUTH.traceback.rollouts);
    expect(await found("kind:generated traceback")).toEqual([]);
    expect(await found("kind:error context_length_exceeded")).toEqual(["3-0"]);
    expect(await found("kind:input context_length_exceeded")).toEqual([]);
    expect(await found("kind:generated Speicherzugriffsfehler")).toEqual(["4-0"]);
    expect(await found("kind:generated ops-runbook-7731")).toEqual([]);
    expect(await found("kind:error")).toEqual(SEARCH_TRUTH.errorBody.rollouts); // a failed call
    expect(await found("kind:generated")).toEqual([...ALL]);
  });

  it("reads every other character literally: no query is a syntax error", async () => {
    for (const q of ["NEAR(a b)", "* OR ^", "qqz AND", "-xq", "{}[]:'", "kind:nothing"])
      expect(await found(q), q).toEqual([]);
    expect(await found("(most")).toEqual(SEARCH_TRUTH.traceback.rollouts);
    // An unclosed quote runs to the end; a lone quote holds nothing to look for: no filter.
    expect(await found('"(most recent')).toEqual(SEARCH_TRUTH.traceback.rollouts);
    expect(await found('"')).toEqual([...ALL]);
  });

  it("composes with the table's other filters", async () => {
    const p = await page(SEARCH_RUN, `text=traceback&q=${encodeURIComponent("2-")}`);
    expect(p.rollouts.map((r) => r.rollout_id)).toEqual(["2-0"]);
  });
});

describe("the trigram index", () => {
  it("catches up after the summaries, a slice at a time, and finds the same rollouts", async () => {
    await found("warm");
    const cache = process.env.ROLLOUT_LENS_CACHE as string;
    const pending = () => {
      const files = readdirSync(cache).filter((f) => f.endsWith(".sqlite"));
      return files.reduce((n, f) => n + pendingTextIn(path.join(cache, f)), 0);
    };
    await expect.poll(pending, { timeout: 30_000, interval: 100 }).toBe(0);
    for (const t of Object.values(SEARCH_TRUTH))
      expect(await found(`"${t.phrase}"`)).toEqual([...t.rollouts].sort());
  }, 60_000);
});

describe("each listed rollout's best hit", () => {
  it("names the call and the first token of the segment holding the match", async () => {
    const p = await page(SEARCH_RUN, "text=ModuleNotFoundError");
    const hit = p.text_hits?.["1-0"];
    // The tool's output is re-fed in the second call's prompt, after the first call's tokens.
    const [first, second] = readFileSync(
      path.join(root, SEARCH_RUN, "tokens", "1-0.tokens.jsonl"),
      "utf8",
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(hit).toMatchObject({
      kind: "input",
      call: second.model_call_id,
      match: "ModuleNotFoundError",
    });
    expect(hit?.pos).toBe(first.prompt_token_ids.length + first.generation_token_ids.length);
  });

  it("marks the words as typed in a row where they occur so, not the first word alone", async () => {
    // The fixture's command is "rm -rf ./build-cache": unquoted, `rm -rf` is two words that both
    // occur; the hit (and the inspector's find it opens) is the whole "rm -rf", not "rm".
    const p = await page(SEARCH_RUN, `text=${encodeURIComponent("rm -rf")}`);
    for (const id of SEARCH_TRUTH.command.rollouts)
      expect(p.text_hits?.[id]).toMatchObject({ kind: "generated", match: "rm -rf" });
    // In another order they are not in a row: the earliest word is marked.
    const q = await page(SEARCH_RUN, `text=${encodeURIComponent("./build-cache rm")}`);
    for (const id of SEARCH_TRUTH.command.rollouts) expect(q.text_hits?.[id]?.match).toBe("rm");
  });

  it("places an error body by its call, with no token", async () => {
    const p = await page(SEARCH_RUN, "text=context_length");
    expect(p.text_hits?.["3-0"]).toMatchObject({ kind: "error", pos: null });
  });

  it("says why a run without a tokenizer cannot be searched", async () => {
    const p = await page(NO_TOKENIZER, "text=traceback");
    expect(p.text_search.tokenizer).toBeNull();
    expect(p.text_search.unavailable).toMatch(/tokenizer/);
    expect(p.rollouts).toEqual([]);
    const all = await page(NO_TOKENIZER, "");
    expect(all.total).toBe(ALL.length);
    expect((await page(SEARCH_RUN, "")).text_search).toEqual({
      tokenizer: "o200k_base",
      indexed: ALL.length,
      unavailable: null,
    });
  });
});

describe("a live run", () => {
  it("finds text a call appended after the first index", async () => {
    const phrase = "late-arriving-phrase-5150";
    expect(await found(phrase)).toEqual([]);
    appendCall("5-0", "c0ffee00c0ffee00c0ffee00c0ffee00", encodeText(` ${phrase}`), phrase);
    await expect.poll(() => found(phrase), { timeout: 30_000, interval: 200 }).toEqual(["5-0"]);
  }, 60_000);

  it("leaves text whose trigrams barely repeat out of the trigram index, and still finds it", async () => {
    // 3,000 random o200k ids decode to text whose trigrams are nearly all different (docs/search.md).
    const phrase = "needle-in-noise-8086";
    const rng = new Random(8086);
    const noise = Array.from({ length: 3000 }, () => rng.int(1000, 190_000));
    const gen = [...noise, ...encodeText(` ${phrase}`)];
    appendCall("4-0", "d00dfeedd00dfeedd00dfeedd00dfeed", gen, phrase);
    await expect.poll(() => found(phrase), { timeout: 30_000, interval: 200 }).toEqual(["4-0"]);
    const cache = process.env.ROLLOUT_LENS_CACHE as string;
    const states = readdirSync(cache)
      .filter((f) => f.endsWith(".sqlite"))
      .flatMap((f) => {
        const db = new Database(path.join(cache, f), { readonly: true });
        try {
          return db.prepare("SELECT trigrams FROM search_text WHERE id = '4-0'").pluck().all();
        } finally {
          db.close();
        }
      });
    expect(states).toContain(0); // never trigram-indexed
    expect(await found("Speicherzugriffsfehler")).toContain("4-0");
  }, 60_000);
});
