// What the e2e specs expect, read from the files on disk by the test itself, never from the server
// under test: token entries, rollout records and run manifests, plus a small independent linking
// of calls by longest cumulative prefix (the spec's rule, re-derived here on simple rollouts).
import {
  closeSync,
  createReadStream,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { FIXTURE_RUNS } from "./paths";

export interface Entry {
  model_call_id: string;
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs?: Array<number | null> | null;
  requested_model?: string | null;
  created_at?: number;
}

export interface RolloutRecord {
  _ng_task_index: number;
  _ng_rollout_index: number;
  scenario?: string;
  mask_sample?: boolean;
  _ng_token_capture?: { n_calls: number; error?: string };
}

export const rolloutId = (r: RolloutRecord) => `${r._ng_task_index}-${r._ng_rollout_index}`;
/** Rollout ids in task, then rollout order ("10-0" after "9-0"). */
export const byRolloutId = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/** Every parsable line of a token store; a torn last line (a write in progress) is skipped. */
export function readEntries(run: string, rollout: string, root = FIXTURE_RUNS): Entry[] {
  const lines = readFileSync(
    path.join(root, run, "tokens", `${rollout}.tokens.jsonl`),
    "utf8",
  ).split("\n");
  const out: Entry[] = [];
  lines.forEach((l, i) => {
    if (l.trim() === "") return;
    try {
      out.push(JSON.parse(l) as Entry);
    } catch (e) {
      if (i !== lines.length - 1) throw e; // only the unterminated last line may be torn
    }
  });
  return out;
}

/** Recorded model-call exchanges of a rollout (capture lines): every call it made, lost ones too. */
export function countExchanges(run: string, rollout: string, root = FIXTURE_RUNS): number {
  return readFileSync(path.join(root, run, "model-calls", `${rollout}.capture.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length;
}

/** The "Calls made" cell's text for `n` calls: the count, then "(k lost)" where some were lost. */
export const callsCellText = (n: number) => new RegExp(`^${n}( \\(\\d+ lost\\))?$`);

/** The last complete line of a store too big to parse whole (the 330 MB rollout). */
export function readLastEntry(file: string): Entry {
  const size = statSync(file).size;
  const fd = openSync(file, "r");
  try {
    for (let span = 1 << 20; ; span *= 2) {
      const from = Math.max(0, size - span);
      const buf = Buffer.alloc(size - from);
      readSync(fd, buf, 0, buf.length, from);
      const text = buf.toString("utf8").replace(/\n+$/, "");
      const nl = text.lastIndexOf("\n");
      if (nl >= 0 || from === 0) return JSON.parse(text.slice(nl + 1)) as Entry;
    }
  } finally {
    closeSync(fd);
  }
}

/** Each entry's id, time and lengths, line by line: the 330 MB store is never held whole. */
export async function entryLengths(
  file: string,
): Promise<Array<{ id: string; created_at: number; prompt: number; generated: number }>> {
  const out = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const e = JSON.parse(line) as Entry;
    out.push({
      id: e.model_call_id,
      created_at: e.created_at ?? 0,
      prompt: e.prompt_token_ids.length,
      generated: e.generation_token_ids.length,
    });
  }
  return out;
}

export function readRecords(run: string, root = FIXTURE_RUNS): RolloutRecord[] {
  return readFileSync(path.join(root, run, "rollouts.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as RolloutRecord);
}

export function sideCallPatterns(run: string, root = FIXTURE_RUNS): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, run, "run.json"), "utf8")) as {
    side_call_patterns?: string[];
  };
  return (manifest.side_call_patterns ?? []).map((p) => p.toLowerCase());
}

/** Rollout ids with a token store, in id order. */
export function storedRollouts(run: string, root = FIXTURE_RUNS): string[] {
  const dir = path.join(root, run, "tokens");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".tokens.jsonl"))
    .map((n) => n.slice(0, -".tokens.jsonl".length))
    .sort(byRolloutId);
}

export function isPatternSideCall(e: Entry, patterns: string[]): boolean {
  const m = (e.requested_model ?? "").toLowerCase();
  return m !== "" && patterns.some((p) => m.includes(p));
}

export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export interface Linked {
  entry: Entry;
  cum: number[];
  parent: number; // index into the linked list, -1 for a root
}

/** Calls that are not pattern side calls, each linked to the earlier call with the longest cumulative prefix of its prompt. */
export function linkByPrefix(entries: Entry[], patterns: string[]): Linked[] {
  const kept = entries.filter((e) => !isPatternSideCall(e, patterns));
  kept.sort(
    (a, b) =>
      a.prompt_token_ids.length - b.prompt_token_ids.length ||
      (a.model_call_id < b.model_call_id ? -1 : 1),
  );
  const linked: Linked[] = [];
  for (const entry of kept) {
    let parent = -1;
    linked.forEach((c, i) => {
      const fits =
        c.cum.length <= entry.prompt_token_ids.length &&
        commonPrefix(c.cum, entry.prompt_token_ids) === c.cum.length;
      if (fits && (parent < 0 || c.cum.length > linked[parent]!.cum.length)) parent = i;
    });
    linked.push({ entry, cum: [...entry.prompt_token_ids, ...entry.generation_token_ids], parent });
  }
  return linked;
}

/** The root-to-leaf path with the most generated tokens (the seed builder's main chain, no ties in these fixtures). */
export function heaviestChain(linked: Linked[]): Linked[] {
  const hasChild = new Set(linked.map((c) => c.parent));
  let best: Linked[] = [];
  let bestGen = -1;
  linked.forEach((leaf, i) => {
    if (hasChild.has(i)) return;
    const path: Linked[] = [];
    for (let k = i; k >= 0; k = linked[k]!.parent) path.unshift(linked[k]!);
    const gen = path.reduce((n, c) => n + c.entry.generation_token_ids.length, 0);
    if (gen > bestGen) [best, bestGen] = [path, gen];
  });
  return best;
}

export function chainFacts(chain: Linked[]) {
  const leaf = chain[chain.length - 1]!;
  const generated = chain.reduce((n, c) => n + c.entry.generation_token_ids.length, 0);
  return {
    length: leaf.cum.length,
    generated,
    rootPromptLength: chain[0]!.entry.prompt_token_ids.length,
  };
}

/** en-US thousands separators, as the views print counts. */
export const fmtInt = (n: number) => n.toLocaleString("en-US");
