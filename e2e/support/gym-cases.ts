// The gym-v1 case stores (fixtures/gym-v1-cases, one tiny Gym main store per freeze rule) as runs of
// the e2e runs root: `gym-v1-<case>/run.json` (builder_profile gym-v1) and `gym-v1-<case>/tokens/`,
// a copy of the case's store without its expected.jsonl. What the specs expect of them is read
// from the case files here, never from the server under test.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const GYM_CASES = path.resolve("fixtures/gym-v1-cases");
const PREFIX = "gym-v1-";

export interface GymCaseRun {
  /** The run id in the e2e root. */
  run: string;
  /** The case directory's name. */
  name: string;
}

export function gymCaseRuns(): GymCaseRun[] {
  return readdirSync(GYM_CASES)
    .sort()
    .map((name) => ({ run: `${PREFIX}${name}`, name }));
}

/** Writes every case as a run under `root` (copies: the server refuses links out of its root). */
export function writeGymCaseRuns(root: string): void {
  for (const { run, name } of gymCaseRuns()) {
    const tokens = path.join(root, run, "tokens");
    mkdirSync(tokens, { recursive: true });
    for (const f of readdirSync(path.join(GYM_CASES, name)))
      if (f !== "expected.jsonl") cpSync(path.join(GYM_CASES, name, f), path.join(tokens, f));
    const manifest = {
      name: `gym-v1 case: ${name}`,
      description: `The store of fixtures/gym-v1-cases/${name}, read as Gym main's freeze reads it.`,
      capture: "on",
      builder_profile: "gym-v1",
    };
    writeFileSync(path.join(root, run, "run.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** The rollout ids Gym main's consumer answered for (expected.jsonl). */
export function caseRollouts(name: string): string[] {
  return readFileSync(path.join(GYM_CASES, name, "expected.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => (JSON.parse(l) as { rollout_id: string }).rollout_id);
}

/** Call ids of a rollout's token file, line by line; a line that does not parse is skipped. */
export function caseCallIds(name: string, rollout: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(GYM_CASES, name, `${rollout}.tokens.jsonl`), "utf8");
  } catch {
    return []; // a retired tombstone has no token file
  }
  const ids = new Set<string>();
  for (const l of text.split("\n")) {
    try {
      const id = (JSON.parse(l) as { model_call_id?: unknown }).model_call_id;
      if (typeof id === "string") ids.add(id);
    } catch {
      // a torn or garbage line: Gym drops or refuses it; it names no call
    }
  }
  return [...ids];
}

/** Python truthiness of a JSON value, as Gym main reads `state.json` flags. */
function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  return typeof v !== "object" || Object.keys(v).length > 0;
}

/** The lifecycle a store directory's own files give a rollout (docs/gym-v1-store.md §1, §6). */
export function lifecycleStateIn(dir: string, rollout: string): string {
  const files = readdirSync(dir);
  const has = (suffix: string) => files.includes(`${rollout}.tokens.${suffix}`);
  if (has("lock") && !["jsonl", "state.json", "intents", "incomplete"].some(has)) return "deleted";
  if (!has("state.json")) return has("intents") ? "open" : "none";
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path.join(dir, `${rollout}.tokens.state.json`), "utf8"));
  } catch {
    return "unreadable";
  }
  if (typeof state !== "object" || state === null || Array.isArray(state)) return "unreadable";
  const s = state as Record<string, unknown>;
  return truthy(s.retired) ? "retired" : truthy(s.frozen) ? "frozen" : "open";
}

/** The lifecycle the case's own files give a rollout: what its table row must say. */
export function caseLifecycleState(name: string, rollout: string): string {
  return lifecycleStateIn(path.join(GYM_CASES, name), rollout);
}

/**
 * Every path under `dir`, directories with a trailing slash: beside fingerprintTree (each file's
 * bytes, size and mtime) it shows a created directory too, which holds no file to fingerprint.
 */
export function treeEntries(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(rel);
    }
  };
  walk(dir);
  return out;
}
