// The Host check against DNS rebinding, malformed URLs and path confinement, against real servers:
// without a token every page and route refuses a foreign Host with 403 (and says how to allow it)
// while loopback names on the server's port work; malformed URLs are 400 with the security headers;
// a second server with an allowed host and a runs root holding a symlink out of it.
import http from "node:http";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { readEntries } from "./support/fixture-truth";
import { scratchDir, startNext, stopNext } from "./support/server";

const PORT = Number(process.env.E2E_PORT ?? 3123);
const RUN = "claude-code-capture-on";
const ROLLOUT = "0-0";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request with a Host header of our choosing (fetch does not let one be set). */
function send(
  port: number,
  p: string,
  host: string,
  method = "GET",
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: p, method, headers: { ...headers, host } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

function everyPageAndRoute(): string[] {
  const call = readEntries(RUN, ROLLOUT)[0]?.model_call_id ?? "missing";
  const api = `/api/runs/${RUN}/rollouts/${ROLLOUT}`;
  return [
    "/",
    `/runs/${RUN}`,
    `/runs/${RUN}/rollouts/${ROLLOUT}`,
    "/compare?a=grpo-capture-on&b=grpo-capture-off",
    "/no-such-page",
    "/api/runs",
    `/api/runs/${RUN}/health`,
    `/api/runs/${RUN}/rollouts`,
    `/api/runs/${RUN}/export?format=json`,
    api,
    `${api}/tokens?chain=main`,
    `${api}/conversation`,
    `${api}/neighbors`,
    `${api}/progress`,
    `${api}/calls/${call}`,
    "/api/compare?a=grpo-capture-on&b=grpo-capture-off",
  ];
}

test("without a token, a foreign Host gets 403 on every page and route", async () => {
  for (const p of everyPageAndRoute()) {
    for (const host of [
      "evil.example",
      `evil.example:${PORT}`,
      `127.0.0.1.evil.example:${PORT}`,
      `localhost.evil.example:${PORT}`,
      `[::ffff:127.0.0.1]:${PORT}`,
      `127.0.0.1:${PORT + 1}`,
    ]) {
      const res = await send(PORT, p, host);
      expect(res.status, `${host} ${p}`).toBe(403);
      expect(res.body, p).toContain("--allowed-host");
      expect(res.body, p).not.toContain("claude-code");
      expect(res.headers["content-security-policy"], p).toContain("default-src 'none'");
      expect(res.headers["x-content-type-options"], p).toBe("nosniff");
    }
  }
});

test("loopback names on the server's port are answered", async () => {
  for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`]) {
    for (const p of ["/", "/api/runs", `/api/runs/${RUN}/health`]) {
      const res = await send(PORT, p, host);
      expect(res.status, `${host} ${p}`).toBe(200);
    }
  }
});

test("a cross-origin POST is refused", async () => {
  const res = await send(PORT, "/", `127.0.0.1:${PORT}`, "POST", {
    origin: "http://evil.example",
  });
  expect(res.status).toBe(403);
  expect(res.body).toMatch(/^Blocking a POST request from origin/);
});

test("malformed URLs are 400 with the security headers; bad run ids 400; JSON is no-store", async () => {
  const host = `127.0.0.1:${PORT}`;
  for (const p of ["/runs/%C0%AE", `/api/runs/a%ZZ/health`, "/runs/%E0%A4%A", `/api/runs/%C0%AE`]) {
    const res = await send(PORT, p, host);
    expect(res.status, p).toBe(400);
    expect(res.body, p).toMatch(/^malformed URL: /);
    expect(res.headers["content-security-policy"], p).toContain("default-src 'none'");
    expect(res.headers["x-content-type-options"], p).toBe("nosniff");
    expect(res.headers["x-frame-options"], p).toBe("DENY");
  }
  const bad = await send(PORT, "/api/runs/bad!id/health", host);
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.body).error).toMatch(/^invalid run id /);
  expect((await send(PORT, "/api/runs/nope/health", host)).status).toBe(404);
  for (const p of everyPageAndRoute().filter((x) => x.startsWith("/api/") && !x.includes("export")))
    expect((await send(PORT, p, host)).headers["cache-control"], p).toBe("no-store");
});

test.describe("with --allowed-host and a runs root holding a symlink out of it", () => {
  const SECOND = 3128;
  let server: ChildProcess | undefined;
  let [root, outside] = ["", ""];
  test.beforeAll(async () => {
    [root, outside] = [
      scratchDir("rollout-lens-e2e-host-"),
      scratchDir("rollout-lens-e2e-outside-"),
    ];
    writeFileSync(path.join(outside, "0-0.tokens.jsonl"), "");
    mkdirSync(path.join(root, "leaky"));
    symlinkSync(outside, path.join(root, "leaky", "tokens"));
    mkdirSync(path.join(root, "plain", "tokens"), { recursive: true });
    writeFileSync(
      path.join(root, "plain", "run.json"),
      JSON.stringify({ paths: { rollouts: "/etc/passwd" } }),
    );
    server = (
      await startNext(SECOND, {
        ROLLOUT_LENS_RUNS: root,
        ROLLOUT_LENS_ALLOWED_HOSTS: "box.lan,tunnel:9000",
      })
    ).child;
  });
  test.afterAll(() => stopNext(server, root, outside));

  test("allowed hosts are answered, others still refused; refused paths are listed errors", async () => {
    expect((await send(SECOND, "/api/runs", `box.lan:${SECOND}`)).status).toBe(200);
    expect((await send(SECOND, "/api/runs", "tunnel:9000")).status).toBe(200);
    expect((await send(SECOND, "/api/runs", "tunnel:9001")).status).toBe(403);
    expect((await send(SECOND, "/api/runs", `evil.example:${SECOND}`)).status).toBe(403);
    const res = await send(SECOND, "/api/runs", `127.0.0.1:${SECOND}`);
    expect(res.status).toBe(200);
    const runs = (JSON.parse(res.body) as { runs: Array<{ id: string; manifest_error: string }> })
      .runs;
    expect(runs.map((r) => r.id)).toEqual(["leaky", "plain"]);
    expect(runs[0]?.manifest_error).toMatch(/^tokens: a symlink that points outside the runs root/);
    expect(runs[1]?.manifest_error).toMatch(/^run\.json paths\.rollouts: \/etc\/passwd: outside/);
    expect(res.body).not.toContain("root:");
    for (const p of ["/runs/leaky", "/api/runs/leaky/health", "/api/runs/plain/rollouts"])
      expect((await send(SECOND, p, `localhost:${SECOND}`)).status, p).toBe(200);
  });
});
