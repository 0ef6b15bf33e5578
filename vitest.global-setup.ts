// Every unit test's temporary files go under one directory of this run (TMPDIR, which os.tmpdir()
// reads and the test threads and child processes inherit), removed when the run ends: a run of
// `npm test` used to leave some 230 directories in the system's temporary directory, each time.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tests-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
