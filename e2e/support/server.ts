// A second `next start` for specs that need their own runs root or environment (live runs, the
// access token). Ready is a condition polled with expect.poll, not a fixed sleep. A spec's own
// runs root and index cache are scratch directories, removed once its server has exited: each run
// of the suite left some 110 MB of index cache in the temp directory before.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";

/** A new empty directory in the temp directory, for a spec's own runs root or index cache. */
export const scratchDir = (prefix: string): string => mkdtempSync(path.join(os.tmpdir(), prefix));

export async function startNext(
  port: number,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // Any HTTP answer means it is up (the token server answers 401).
  const up = () =>
    fetch(`${url}/api/runs/__ready__/health`).then(
      () => true,
      () => (child.exitCode === null ? false : "exited"),
    );
  await expect.poll(up, { message: `next start on port ${port}`, timeout: 30_000 }).toBe(true);
  return { url, child };
}

/** Stops a server started here and waits until it has exited, then removes `dirs`. */
export async function stopNext(
  child: ChildProcess | undefined,
  ...dirs: Array<string | undefined>
): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await gone;
  }
  for (const dir of dirs) if (dir) rmSync(dir, { recursive: true, force: true });
}
