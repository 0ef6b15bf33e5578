// Starts the built app on a runs root for the benchmarks (a fresh `next start` process each time:
// its first requests are cold), and a headless Debian Chromium.
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "@playwright/test";

export interface BenchServer {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

export async function startServer(
  runsRoot: string,
  port: number,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  if (!existsSync(".next/BUILD_ID")) execSync("npx next build", { stdio: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  // A server left on the port would answer for ours, warm: a cold figure would be a lie.
  if (
    await fetch(url).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already serving; stop that process first`);
  const child: ChildProcess = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: { ...process.env, ROLLOUT_LENS_RUNS: runsRoot, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: "ignore",
    },
  );
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  // If the bench dies (an error, a closed pipe), the server must not outlive it and serve the next run warm.
  const orphan = () => child.kill("SIGKILL");
  process.once("exit", orphan);
  const stop = async () => {
    process.removeListener("exit", orphan);
    if (child.exitCode !== null) return;
    child.kill();
    const forced = setTimeout(() => child.kill("SIGKILL"), 5_000); // next waits for open keep-alive sockets
    await exited;
    clearTimeout(forced);
  };
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    // Any answer means it is up; /api/runs would start indexing every run and skew the figures.
    const ok = await fetch(`${url}/api/runs/__ready__/health`).then(
      () => true,
      () => false,
    );
    if (ok) return { url, pid: child.pid as number, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the server did not start on port ${port}`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
}
