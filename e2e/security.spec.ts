import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { fingerprintTree } from "../lib/testing/fingerprint";

async function noScriptRan(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"], svg[onload]').count()).toBe(0);
}

test("model text is rendered escaped in every view", async ({ page, request }) => {
  const base = "/runs/hostile-text/rollouts/0-0";
  const view = await (await request.get("/api/runs/hostile-text/rollouts/0-0")).json();
  await page.goto(base);
  await expect(page.locator(".tok").first()).toBeVisible();
  await noScriptRan(page);
  for (const call of [...view.calls.map((c: { model_call_id: string }) => c.model_call_id), view.failed[0].model_call_id]) {
    await page.goto(`${base}?tab=call&call=${call}`);
    await expect(page.getByTestId("call-detail")).toContainText(call);
    await expect(page.getByTestId("exchange").first()).toBeVisible();
    await noScriptRan(page);
  }
  await expect(page.getByTestId("error-body")).toContainText('<script>window.__xss = \\"script\\"</script>');
  await page.goto(`${base}?tab=call&call=${view.calls[1].model_call_id}`);
  await expect(page.getByTestId("output-item")).toContainText("Done: <script>window.__xss = \"script\"</script>");
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
  expect(csp.split(";").find((d) => d.trim().startsWith("script-src"))).not.toContain("unsafe-inline");
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

test("read-only: every page and route leaves the fixture runs byte-identical", async ({ page, request }) => {
  test.setTimeout(120_000);
  const before = fingerprintTree("fixtures/runs");
  const runs = (await (await request.get("/api/runs")).json()).runs as Array<{ id: string }>;
  await page.goto("/");
  for (const { id } of runs) {
    await page.goto(`/runs/${id}`);
    await expect(page.getByTestId("rollouts-section")).toBeVisible();
    for (const f of ["csv", "json"]) expect((await request.get(`/api/runs/${id}/export?format=${f}`)).ok()).toBe(true);
    const rows = (await (await request.get(`/api/runs/${id}/rollouts?limit=3`)).json()).rollouts as Array<{ rollout_id: string }>;
    for (const { rollout_id } of rows) {
      const api = `/api/runs/${id}/rollouts/${rollout_id}`;
      const view = await (await request.get(api)).json();
      for (const profile of ["seed", "gym-v1"]) expect((await request.get(`${api}?profile=${profile}`)).ok()).toBe(true);
      await request.get(`${api}/tokens?chain=main&offset=0&limit=100`);
      await request.get(`${api}/tokens?chain=main&lowprob=-1`);
      for (const c of view.calls?.slice(0, 2) ?? []) {
        await request.get(`${api}/calls/${c.model_call_id}`);
        await request.get(`${api}/tokens?chain=call:${c.model_call_id}&limit=50`);
      }
      await page.goto(`/runs/${id}/rollouts/${rollout_id}?tab=chains`);
      await expect(page.getByTestId("verdict-bar")).toBeVisible();
    }
  }
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off");
  await page.goto("/compare?a=opencode-after-fix&b=opencode-before-fix");
  expect(fingerprintTree("fixtures/runs")).toEqual(before);
});

test.describe("with ROLLOUT_LENS_TOKEN", () => {
  const PORT = 3125;
  let server: ChildProcess;
  test.beforeAll(async () => {
    server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
      env: { ...process.env, ROLLOUT_LENS_RUNS: "fixtures/runs", ROLLOUT_LENS_TOKEN: "s3cret-token", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    for (let i = 0; i < 150; i++) {
      if (await fetch(`http://127.0.0.1:${PORT}/api/runs`).then(() => true, () => false)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("the token server did not start");
  });
  test.afterAll(() => void server?.kill());

  test("every route and page needs the token; ?token= sets a cookie once", async ({ browser }) => {
    const url = `http://127.0.0.1:${PORT}`;
    for (const p of ["/", "/api/runs", "/runs/claude-code-capture-on", "/api/runs/claude-code-capture-on/rollouts/0-0/tokens", "/compare?a=grpo-capture-on&b=grpo-capture-off"]) {
      const res = await fetch(url + p, { redirect: "manual" });
      expect(res.status, p).toBe(401);
      expect(await res.text()).toContain("needs an access token");
    }
    expect((await fetch(`${url}/api/runs`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${url}/api/runs`, { headers: { authorization: "Bearer s3cret-token" } })).status).toBe(200);
    const page = await browser.newPage();
    await page.goto(`${url}/runs/opencode-before-fix?token=s3cret-token`);
    await expect(page).toHaveURL(`${url}/runs/opencode-before-fix`);
    await expect(page.getByTestId("rollout-row").first()).toBeVisible();
    await page.goto(`${url}/runs/opencode-before-fix/rollouts/0-0`);
    await expect(page.locator(".tok").first()).toBeVisible(); // the token windows' fetches carry the cookie
    await page.close();
  });
});
