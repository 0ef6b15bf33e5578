// Starts the built app on a runs root for browser benchmarks, and a headless Debian Chromium.
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "@playwright/test";

export async function startServer(runsRoot: string, port: number): Promise<{ url: string; pid: number; stop: () => void }> {
  if (!existsSync(".next/BUILD_ID")) execSync("npx next build", { stdio: "inherit" });
  const child: ChildProcess = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, ROLLOUT_LENS_RUNS: runsRoot, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    // Any answer means it is up; /api/runs would start indexing every run and skew the figures.
    const ok = await fetch(`${url}/api/runs/__ready__/health`).then(() => true, () => false);
    if (ok) return { url, pid: child.pid as number, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`the server did not start on port ${port}`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
}
