import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";
import {
  byRolloutId,
  readEntries,
  readRecords,
  rolloutId,
  storedRollouts,
} from "./support/fixture-truth";
import { caseCallIds, caseLifecycleState, caseRollouts, gymCaseRuns } from "./support/gym-cases";
import { startNext } from "./support/server";
import { TOKEN_VIEW } from "./support/token-view";

/** Exchanges of a capture store that failed (status ≥ 400), read from the file. */
function failedExchanges(run: string, rollout: string): string[] {
  const lines = readFileSync(
    path.join(FIXTURE_RUNS, run, "model-calls", `${rollout}.capture.jsonl`),
    "utf8",
  )
    .trim()
    .split("\n");
  return lines
    .map((l) => JSON.parse(l) as { model_call_id: string; status_code: number })
    .filter((x) => x.status_code >= 400)
    .map((x) => x.model_call_id);
}

/** Up to `n` rollouts of a fixture run: those with a token store, else those its records name. */
function someRollouts(run: string, n: number): string[] {
  const stored = storedRollouts(run);
  if (stored.length > 0) return stored.slice(0, n);
  try {
    return readRecords(run).map(rolloutId).sort(byRolloutId).slice(0, n);
  } catch {
    return [];
  }
}

async function noScriptRan(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
  ).toBeUndefined();
  expect(await page.locator('img[src="x"], svg[onload]').count()).toBe(0);
}

test("model text is rendered escaped in every view", async ({ page }) => {
  const base = "/runs/hostile-text/rollouts/0-0";
  const calls = readEntries("hostile-text", "0-0").map((e) => e.model_call_id);
  const failed = failedExchanges("hostile-text", "0-0");
  expect(failed).toHaveLength(1);
  await page.goto(base);
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible();
  await noScriptRan(page);
  for (const call of [...calls, ...failed]) {
    await page.goto(`${base}?tab=call&call=${call}`);
    await expect(page.getByTestId("call-detail")).toContainText(call);
    await expect(page.getByTestId("exchange").first()).toBeVisible();
    await noScriptRan(page);
  }
  await expect(page.getByTestId("error-body")).toContainText(
    '<script>window.__xss = \\"script\\"</script>',
  );
  await page.goto(`${base}?tab=call&call=${calls[1]}`);
  await expect(page.getByTestId("output-item")).toContainText(
    'Done: <script>window.__xss = "script"</script>',
  );
  await expect(page.getByTestId("interstitial-text")).toContainText("<img src=x onerror=");
  await noScriptRan(page);
  await page.goto("/runs/hostile-text");
  await expect(page.getByTestId("rollout-row")).toHaveCount(1);
  await noScriptRan(page);
});

test("security headers: a nonce CSP without inline scripts, nosniff", async ({ request }) => {
  const page = await request.get("/");
  const csp = page.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp.split(";").find((d) => d.trim().startsWith("script-src"))).not.toContain(
    "unsafe-inline",
  );
  expect(csp).toContain("frame-ancestors 'none'");
  expect(page.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await request.get("/api/runs")).headers()["x-content-type-options"]).toBe("nosniff");
  expect(page.headers()["x-powered-by"]).toBeUndefined();
});

test("ids from URLs never leave the runs root", async ({ request }) => {
  const paths = [
    "/api/runs/..%2F..%2Fetc/health",
    "/api/runs/%2Fetc%2Fpasswd/health",
    "/api/runs/..%5C..%5Cwindows/health",
    "/api/runs/claude-code-capture-on/rollouts/..%2Frun.json",
    "/api/runs/claude-code-capture-on/rollouts/%2Fetc%2Fpasswd",
    "/api/runs/claude-code-capture-on/rollouts/0-0%00/tokens",
    "/api/runs/claude-code-capture-on/rollouts/....%2F%2F0-0",
  ];
  for (const p of paths) {
    const res = await request.get(p);
    expect([400, 404], p).toContain(res.status());
    const body = await res.text();
    expect(body, p).not.toContain("root:");
    expect(JSON.parse(body).error, p).toBeTruthy();
  }
});

/**
 * GET, asked once more when the connection was reset: the server closes a keep-alive socket left
 * idle (5 s) while the walk visits pages, and one the client reuses at that moment is reset (once
 * in a CI run of the walk's parallel requests). Any answer, an error status included, is returned.
 */
async function get(request: APIRequestContext, url: string) {
  return request.get(url).catch((err: Error) => {
    if (!/ECONNRESET/.test(err.message)) throw err;
    return request.get(url);
  });
}

/** Answered, and not with a server error: a 404 (no main chain to page) is an answer too. */
async function answered(request: APIRequestContext, url: string): Promise<void> {
  const res = await get(request, url);
  expect(res.status(), url).toBeLessThan(500);
}

/** Each URL answered (answered), asked all at once: the server takes them together. */
const allAnswered = (request: APIRequestContext, urls: string[]) =>
  Promise.all(urls.map((u) => answered(request, u)));

/**
 * Every route of one gym-v1 case run (fixtures/gym-v1-cases) and its run page, with each rollout's
 * lifecycle as the case's files give it: the run's routes, and per rollout every profile, the
 * stamp and facts, token windows, the conversation, neighbours, progress and each call. The
 * inspector's tabs of a rollout of every case run are opened by console-clean.spec.
 */
async function visitGymCase(page: Page, request: APIRequestContext, run: string, name: string) {
  await page.goto(`/runs/${run}`);
  await expect(page.getByTestId("rollouts-section")).toBeVisible();
  for (const id of caseRollouts(name))
    await expect(
      page
        .locator(`[data-testid="rollout-row"][data-rollout-id="${id}"]`)
        .getByTestId("rollout-lifecycle"),
      `${run} ${id}`,
    ).toHaveAttribute("data-state", caseLifecycleState(name, id));
  const api = `/api/runs/${run}`;
  await allAnswered(
    request,
    [
      "/health",
      "/rollouts",
      "/rollouts?reason=out_of_vocabulary",
      "/rollouts?severity=masked&sort=severity&dir=desc",
      "/export?format=csv",
      "/export?format=json",
    ].map((q) => api + q),
  );
  for (const id of caseRollouts(name)) {
    const r = `${api}/rollouts/${id}`;
    const calls = caseCallIds(name, id);
    await allAnswered(request, [
      ...["", "?profile=seed", "?profile=gym-v1", "?profile=auto", "?stamp=1", "?facts=1"].map(
        (q) => r + q,
      ),
      ...[
        "/tokens?chain=main&offset=0&limit=100",
        "/tokens?chain=main&segments=1",
        "/tokens?chain=main&lowprob=-1",
        "/conversation?chain=main",
        "/neighbors",
        "/progress",
      ].map((q) => r + q),
      ...calls.flatMap((c) => [
        `${r}/calls/${encodeURIComponent(c)}`,
        `${r}/tokens?chain=${encodeURIComponent(`call:${c}`)}&limit=50`,
      ]),
    ]);
  }
}

// Read-only: the runner's global setup fingerprints the served runs root before the first test and
// fails the run if any byte, size, time or path differs after the last (support/read-only-root), so
// every page any spec opens is covered. This test adds the routes no page asks for as such: each
// run's exports, a few rollouts under both profiles, token windows and calls, and every route and
// the run page of each gym-v1 case store.
test("read-only: every route of every run is asked for (the root is checked after all tests)", async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const cases = gymCaseRuns();
  expect(cases.length).toBeGreaterThanOrEqual(13);
  const runs = readdirSync(FIXTURE_RUNS).sort();
  expect(runs.length).toBeGreaterThan(5);
  await answered(request, "/api/runs");
  for (const id of runs) {
    const ok = async (url: string) => expect((await get(request, url)).ok(), url).toBe(true);
    await Promise.all([
      ...["csv", "json"].map((f) => ok(`/api/runs/${id}/export?format=${f}`)),
      ...someRollouts(id, 3).flatMap((rollout_id) => {
        const api = `/api/runs/${id}/rollouts/${rollout_id}`;
        const calls = storedRollouts(id).includes(rollout_id)
          ? readEntries(id, rollout_id).slice(0, 2)
          : [];
        return [
          ok(api),
          ...["seed", "gym-v1"].map((profile) => ok(`${api}?profile=${profile}`)),
          get(request, `${api}/tokens?chain=main&offset=0&limit=100`),
          get(request, `${api}/tokens?chain=main&lowprob=-1`),
          ...calls.flatMap((c) => [
            get(request, `${api}/calls/${c.model_call_id}`),
            get(request, `${api}/tokens?chain=call:${c.model_call_id}&limit=50`),
          ]),
        ];
      }),
    ]);
  }
  for (const { run, name } of cases) await visitGymCase(page, request, run, name);
  const [a, b] = [cases[0]?.run, cases[cases.length - 1]?.run];
  await page.goto(`/compare?a=${a}&b=${b}`);
  await answered(request, `/api/compare?a=${a}&b=${b}`);
});

test.describe("with ROLLOUT_LENS_TOKEN", () => {
  const PORT = 3125;
  let server: ChildProcess | undefined;
  test.beforeAll(async () => {
    server = (
      await startNext(PORT, {
        ROLLOUT_LENS_RUNS: "fixtures/runs",
        ROLLOUT_LENS_TOKEN: "s3cret-token",
      })
    ).child;
  });
  test.afterAll(() => void server?.kill());

  test("every route and page needs the token; ?token= sets a cookie once", async ({ browser }) => {
    const url = `http://127.0.0.1:${PORT}`;
    for (const p of [
      "/",
      "/api/runs",
      "/runs/claude-code-capture-on",
      "/api/runs/claude-code-capture-on/rollouts/0-0/tokens",
      "/compare?a=grpo-capture-on&b=grpo-capture-off",
    ]) {
      const res = await fetch(url + p, { redirect: "manual" });
      expect(res.status, p).toBe(401);
      expect(await res.text()).toContain("needs an access token");
    }
    expect(
      (await fetch(`${url}/api/runs`, { headers: { authorization: "Bearer wrong" } })).status,
    ).toBe(401);
    expect(
      (await fetch(`${url}/api/runs`, { headers: { authorization: "Bearer s3cret-token" } }))
        .status,
    ).toBe(200);
    const page = await browser.newPage();
    await page.goto(`${url}/runs/opencode-before-fix?token=s3cret-token`);
    await expect(page).toHaveURL(`${url}/runs/opencode-before-fix`);
    await expect(page.getByTestId("rollout-row").first()).toBeVisible();
    await page.goto(`${url}/runs/opencode-before-fix/rollouts/0-0`);
    await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(); // the token windows' fetches carry the cookie
    await page.close();
  });
});
