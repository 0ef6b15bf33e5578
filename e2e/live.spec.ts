import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A run being written while the pages are open: its own server on a temp runs root.
const PORT = 3126;
const URL_ = `http://127.0.0.1:${PORT}`;
let server: ChildProcess;
let tokens: string;

const rec = (rollout: string, id: string, prompt: number[], gen: number[], t: number) =>
  JSON.stringify({ rollout_id: rollout, model_call_id: id, model: "policy", prompt_token_ids: prompt, generation_token_ids: gen, generation_log_probs: gen.map(() => -0.1), created_at: t }) + "\n";

test.beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-live-"));
  tokens = path.join(root, "live", "tokens");
  mkdirSync(tokens, { recursive: true });
  writeFileSync(path.join(tokens, "0-0.tokens.jsonl"), rec("0-0", "call-a", [1, 2, 3], [4, 5], 1));
  server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: { ...process.env, ROLLOUT_LENS_RUNS: root, ROLLOUT_LENS_CACHE: path.join(os.tmpdir(), `rollout-lens-live-cache-${process.pid}`), NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${URL_}/api/runs`).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the live server did not start");
});
test.afterAll(() => void server?.kill());

test("new calls and rollouts appear without a restart; a half-written line is never shown", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`${URL_}/runs/live/rollouts/0-0`);
  await expect(page.getByTestId("tree-row")).toHaveCount(1);
  // The writer appends half a line: it stays invisible (a torn tail), and the writer is never blocked.
  const next = rec("0-0", "call-b", [1, 2, 3, 4, 5, 6], [7, 8], 2);
  appendFileSync(path.join(tokens, "0-0.tokens.jsonl"), next.slice(0, 40));
  await expect(page.getByTestId("read-issues")).toContainText("torn line", { timeout: 15_000 });
  await expect(page.getByTestId("tree-row")).toHaveCount(1);
  appendFileSync(path.join(tokens, "0-0.tokens.jsonl"), next.slice(40));
  await expect(page.locator('[data-testid="tree-row"][data-call-id="call-b"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("read-issues")).toHaveCount(0);
  await expect(page.getByTestId("token-counts")).toContainText("8 tokens");

  await page.goto(`${URL_}/runs/live`);
  await expect(page.getByTestId("rollouts-count")).toHaveText("1 of 1 rollouts");
  writeFileSync(path.join(tokens, "1-0.tokens.jsonl"), rec("1-0", "x", [9], [10], 3));
  await expect(page.getByTestId("rollouts-count")).toHaveText("2 of 2 rollouts", { timeout: 20_000 });
  await expect(page.locator('[data-rollout-id="1-0"]')).toBeVisible();
});
