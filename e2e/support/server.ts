// A second `next start` for specs that need their own runs root or environment (live runs, the
// access token). Ready is a condition polled with expect.poll, not a fixed sleep.
import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "@playwright/test";

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
