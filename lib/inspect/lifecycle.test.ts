// The rollout view's Gym lifecycle (read.lifecycle) against the store's own files, read here
// independently: state.json, the intents file, the token file's bytes, and Gym main's own answer
// (expected.jsonl) for the snapshot version, the error and the torn tail.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { rolloutViewSchema, type LifecycleView } from "@/lib/schema/api-rollout";
import { fingerprintDir } from "@/lib/testing/temp-store";
import { inspectRollout } from "./rollout-model";

const CASES = path.resolve("fixtures/gym-v1-cases");
const MAX_ID = 2n ** 31n - 1n;

async function lifecycleOf(root: string, runId: string, rollout: string) {
  const model = await inspectRollout(await getRun(runId, root), rollout, { profile: "gym-v1" });
  return rolloutViewSchema.parse(model.view).read.lifecycle;
}

function readOr(file: string): Buffer | null {
  return existsSync(file) ? readFileSync(file) : null;
}

/** Ids of the token file's complete lines that parse (the entries an intent can be satisfied by). */
function entryIds(tokens: Buffer | null): Set<string> {
  const ids = new Set<string>();
  for (const l of (tokens?.toString("utf8") ?? "").split("\n")) {
    try {
      ids.add((JSON.parse(l) as { model_call_id: string }).model_call_id);
    } catch {
      // a torn or garbage line is no entry
    }
  }
  return ids;
}

/** Token ids outside 0 … 2^31−1, found in the raw text so digits past 2^53 stay exact. */
function outsideIds(tokens: Buffer | null): Array<{ line: number; digits: string }> {
  const out: Array<{ line: number; digits: string }> = [];
  (tokens?.toString("utf8") ?? "").split("\n").forEach((text, i) => {
    for (const m of text.matchAll(/"(?:prompt|generation)_token_ids":\s*\[([^\]]*)\]/g)) {
      for (const d of (m[1] ?? "").split(",").map((s) => s.trim())) {
        if (d !== "" && (BigInt(d) < 0n || BigInt(d) > MAX_ID))
          out.push({ line: i + 1, digits: d });
      }
    }
  });
  return out;
}

/** The final unindexed line, when it ends the file and is not JSON: what Gym drops as torn. */
function tornTail(tokens: Buffer | null, indexed: number): LifecycleView["torn_tail"] {
  if (!tokens || indexed >= tokens.length) return null;
  const tail = tokens.subarray(indexed).toString("utf8");
  const body = tail.endsWith("\n") ? tail.slice(0, -1) : tail;
  const last = body.slice(body.lastIndexOf("\n") + 1);
  try {
    JSON.parse(last);
    return null;
  } catch {
    const bytes = Buffer.byteLength(last) + (tail.endsWith("\n") ? 1 : 0);
    return { offset: tokens.length - bytes, bytes };
  }
}

/** What the lifecycle must say, from the files of rollout `id` in `dir`. */
function expectedFrom(dir: string, id: string): Partial<LifecycleView> {
  const p = (suffix: string) => path.join(dir, `${id}.tokens.${suffix}`);
  const tokens = readOr(p("jsonl"));
  const intentsText = readOr(p("intents"))?.toString("utf8");
  const ids = entryIds(tokens);
  const intents = (intentsText ?? "").split("\n").filter((l) => l.trim() !== "");
  const stateText = readOr(p("state.json"))?.toString("utf8");
  let st: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = stateText === undefined ? null : JSON.parse(stateText);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      st = parsed as Record<string, unknown>;
    }
  } catch {
    st = null;
  }
  const base: Partial<LifecycleView> = {
    file_size: tokens?.length ?? 0,
    intents: {
      satisfied: intents.filter((i) => ids.has(i)),
      dangling: intents.filter((i) => !ids.has(i)),
    },
    outside_ids: outsideIds(tokens).map((o) => expect.objectContaining(o)),
  };
  if (stateText === undefined) return { ...base, state: "absent" };
  if (st === null) return { ...base, state: "unreadable" };
  const indexed = typeof st.indexed_size === "number" ? st.indexed_size : 0;
  return {
    ...base,
    state: "indexed",
    frozen: Boolean(st.frozen),
    retired: Boolean(st.retired),
    state_incomplete: Boolean(st.incomplete),
    snapshot_id: String(st.snapshot_id),
    stored_version: Number(st.version),
    indexed_size: indexed,
    torn_tail: tornTail(tokens, indexed),
  };
}

describe("the lifecycle of Gym main's example store, on the rollout view", () => {
  const dir = path.join(RUNS_DIR, "gym-main-example", "tokens");

  it.each(["0-0", "0-0-a1", "1-0", "2-0", "3-0"])("%s matches its own files", async (id) => {
    const before = fingerprintDir(dir);
    const lc = await lifecycleOf(RUNS_DIR, "gym-main-example", id);
    expect(lc).toMatchObject(expectedFrom(dir, id));
    expect(fingerprintDir(dir)).toEqual(before);
  });

  it("0-0 is frozen with both intents satisfied; its version stays (a frozen index)", async () => {
    const lc = await lifecycleOf(RUNS_DIR, "gym-main-example", "0-0");
    const st = JSON.parse(readFileSync(path.join(dir, "0-0.tokens.state.json"), "utf8"));
    expect(lc).toMatchObject({
      frozen: true,
      torn_tail: null,
      error: null,
      indexed_size: st.indexed_size,
    });
    expect(lc?.intents).toEqual({ satisfied: ["c1", "c2"], dangling: [] });
    expect(lc?.snapshot_version).toBe(st.version);
  });

  it("3-0 is a retired tombstone the freeze refuses", async () => {
    const lc = await lifecycleOf(RUNS_DIR, "gym-main-example", "3-0");
    expect(lc).toMatchObject({ retired: true, frozen: true, file_size: 0 });
    expect(lc?.error).toBe("RuntimeError: Token capture for rollout 3-0 is retired");
  });
});

describe("the lifecycle of each gym-v1 case, on the rollout view", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "lifecycle-cases-"));
  const names = readdirSync(CASES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it("covers every case", () => expect(names.length).toBeGreaterThanOrEqual(13));

  it.each(names)("%s", async (name) => {
    const runDir = path.join(root, name);
    const tokens = path.join(runDir, "tokens");
    mkdirSync(tokens, { recursive: true });
    writeFileSync(
      path.join(runDir, "run.json"),
      JSON.stringify({ name, builder_profile: "gym-v1" }),
    );
    cpSync(path.join(CASES, name), tokens, { recursive: true });
    const exp = JSON.parse(readFileSync(path.join(CASES, name, "expected.jsonl"), "utf8"));
    const lc = await lifecycleOf(root, name, "r0");
    const hasLifecycleFile = ["state.json", "intents"].some((s) =>
      existsSync(path.join(tokens, `r0.tokens.${s}`)),
    );
    if (!hasLifecycleFile) {
      expect(lc).toBeNull();
      return;
    }
    expect(lc).toMatchObject(expectedFrom(tokens, "r0"));
    // Gym main's own answer: the snapshot version its freeze gave, its error, the torn tail.
    expect(lc?.snapshot_version).toBe(exp.snapshot_version ?? null);
    expect(lc?.error).toBe(exp.error);
    expect(lc?.torn_tail !== null).toBe(exp.torn_tail);
  });
});
