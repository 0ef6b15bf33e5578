// A NeMo-RL log directory (`exp_001/`, `exp_002/`, … and no run.json) in the runs root lists each
// experiment as a run, `<dir>.exp_NNN` named `<dir>/exp_NNN`; a run that happens to hold exp_NNN
// directories stays one run. Built in temp roots.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UnknownRunError } from "@/lib/errors";
import { runsHeldBy } from "./holders";
import { getRun, listRuns } from "./root";

function root(): string {
  return mkdtempSync(path.join(os.tmpdir(), "rollout-lens-exp-"));
}

function logDir(at: string, exps: string[]): void {
  for (const e of exps) mkdirSync(path.join(at, e, "tensorboard"), { recursive: true });
}

describe("NeMo-RL experiments as runs", () => {
  it("lists a log directory's two experiments as two runs, in natural order", async () => {
    const r = root();
    logDir(path.join(r, "grpo"), ["exp_002", "exp_010", "exp_001"]);
    mkdirSync(path.join(r, "plain"));
    const runs = await listRuns(r);
    expect(runs.map((x) => [x.id, x.manifest.name ?? null, path.relative(r, x.dir)])).toEqual([
      ["grpo.exp_001", "grpo/exp_001", "grpo/exp_001"],
      ["grpo.exp_002", "grpo/exp_002", "grpo/exp_002"],
      ["grpo.exp_010", "grpo/exp_010", "grpo/exp_010"],
      ["plain", null, "plain"],
    ]);
    const one = await getRun("grpo.exp_002", r);
    expect([one.dir, one.manifest.name]).toEqual([path.join(r, "grpo", "exp_002"), "grpo/exp_002"]);
  });

  it("keeps an experiment's own run.json name", async () => {
    const r = root();
    logDir(path.join(r, "grpo"), ["exp_001"]);
    writeFileSync(path.join(r, "grpo", "exp_001", "run.json"), JSON.stringify({ name: "mine" }));
    expect((await getRun("grpo.exp_001", r)).manifest.name).toBe("mine");
    expect((await listRuns(r)).map((x) => x.manifest.name)).toEqual(["mine"]);
  });

  it("a directory with run.json (or logs/) is one run even when it holds exp_NNN directories", async () => {
    const r = root();
    logDir(path.join(r, "a"), ["exp_001"]);
    writeFileSync(path.join(r, "a", "run.json"), "{}");
    logDir(path.join(r, "b"), ["exp_001"]);
    mkdirSync(path.join(r, "b", "logs"));
    expect((await listRuns(r)).map((x) => x.id)).toEqual(["a", "b"]);
    await expect(getRun("a.exp_001", r)).rejects.toBeInstanceOf(UnknownRunError);
  });

  it("a served log directory lists its experiments by their own names", async () => {
    const r = root();
    logDir(r, ["exp_001", "exp_002"]);
    expect((await listRuns(r)).map((x) => x.id)).toEqual(["exp_001", "exp_002"]);
  });

  it("an experiment that is a symlink is not followed, and a made-up id is unknown", async () => {
    const r = root();
    const outside = root();
    logDir(outside, ["exp_001"]);
    logDir(path.join(r, "grpo"), ["exp_001"]);
    symlinkSync(path.join(outside, "exp_001"), path.join(r, "grpo", "exp_002"));
    expect((await listRuns(r)).map((x) => x.id)).toEqual(["grpo.exp_001"]);
    await expect(getRun("grpo.exp_002", r)).rejects.toBeInstanceOf(UnknownRunError);
    await expect(getRun("nope.exp_001", r)).rejects.toBeInstanceOf(UnknownRunError);
  });

  it("the holder's own id answers with the runs it holds, a run's with none", async () => {
    const r = root();
    logDir(path.join(r, "grpo"), ["exp_002", "exp_001"]);
    mkdirSync(path.join(r, "plain"));
    expect(await runsHeldBy("grpo", r)).toEqual([
      { id: "grpo.exp_001", name: "grpo/exp_001" },
      { id: "grpo.exp_002", name: "grpo/exp_002" },
    ]);
    expect(await runsHeldBy("plain", r)).toBeNull();
    expect(await runsHeldBy("grpo.exp_001", r)).toBeNull();
    expect(await runsHeldBy("missing", r)).toBeNull();
    expect(await runsHeldBy("../grpo", r)).toBeNull();
  });
});
