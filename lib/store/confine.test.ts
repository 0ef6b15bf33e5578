// Side files of a rollout (state, intents, lost-call marker) are confined to their store like the
// token file: a symlink out of the store is refused and reported, and what it points at is not used.
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRolloutCapture } from "@/lib/store";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";

const entry = line(tokenRecord("0-0", "c1", [1, 2], [3]));

function outsideFile(name: string, content: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-outside-"));
  writeFileSync(path.join(dir, name), content);
  return path.join(dir, name);
}

describe("store side files", () => {
  it("refuses a state file that is a symlink out of the store", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": entry });
    symlinkSync(
      outsideFile("state.json", JSON.stringify({ retired: true, incomplete: true })),
      path.join(dir, "0-0.tokens.state.json"),
    );
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.state).toBeNull();
    expect(c.snapshot.stateIncomplete).toBe(false);
    expect(c.snapshot.readError).toBe(
      "PermissionError: 0-0.tokens.state.json: a symlink that points outside the store; refused",
    );
    expect(c.issues).toContainEqual({
      file: "0-0.tokens.state.json",
      line: null,
      severity: "error",
      message: "0-0.tokens.state.json: a symlink that points outside the store; refused",
    });
  });

  it("refuses intents and lost-call markers that are symlinks out of the store", async () => {
    const dir = tempStore({ "0-0.tokens.jsonl": entry });
    symlinkSync(outsideFile("intents", "c1\nc9\n"), path.join(dir, "0-0.tokens.intents"));
    symlinkSync(outsideFile("incomplete", "c2\n"), path.join(dir, "0-0.tokens.incomplete"));
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.intents).toBeNull();
    expect(c.snapshot.danglingIntents).toEqual([]);
    expect(c.snapshot.incompleteMarker).toBeNull();
    expect(c.snapshot.readError).toMatch(
      /^PermissionError: 0-0\.tokens\.(intents|incomplete): a symlink that points outside the store; refused$/,
    );
    expect(c.issues.filter((i) => /outside the store/.test(i.message)).map((i) => i.file)).toEqual([
      "0-0.tokens.incomplete",
      "0-0.tokens.intents",
    ]);
  });

  it("still reads side files that are symlinks inside the store", async () => {
    const dir = tempStore({
      "0-0.tokens.jsonl": entry,
      "state-copy.json": JSON.stringify({ frozen: true }),
    });
    symlinkSync(path.join(dir, "state-copy.json"), path.join(dir, "0-0.tokens.state.json"));
    const c = await readRolloutCapture(dir, "0-0");
    expect(c.state?.frozen).toBe(true);
    expect(c.snapshot.readError).toBeNull();
  });
});
