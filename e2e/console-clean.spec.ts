// Every page of the app loads clean in Chromium: no console error or warning, no uncaught
// exception, no Content Security Policy violation, no failed request and no subresource answered
// with an HTTP error. The pages: home, every run (listed by /api/runs), a rollout of each run in
// each inspector tab, each builder profile named in one of them, compare, the run table's group
// view and record columns, the error pages, and the light and dark themes. Each visit waits for
// the page's data (its loaded markers, then no request in flight), and the page is left for
// about:blank before the next, so nothing of one visit (an aborted poll) is counted against it.
import {
  expect,
  test,
  type BrowserContext,
  type Locator,
  type Page,
  type Request,
} from "@playwright/test";
import { INSPECTOR_TABS, type InspectorTab } from "../lib/view/inspector-url";
import { drawAll } from "./support/charts";
import { TOKEN_VIEW } from "./support/token-view";

/**
 * The one console message allowed, and only on a deliberate error page: Chromium logs every
 * resource answered with an HTTP error, the document too ("Failed to load resource: the server
 * responded with a status of 404"), so a 404 page logs its own status. That status is checked
 * against the visit's instead; the same message for any other URL (a subresource) still fails.
 */
const DOCUMENT_STATUS = /^Failed to load resource: the server responded with a status of \d+/;

const THEME_COOKIE = "rl-theme"; // lib/view/palette THEME_COOKIE
type Theme = "light" | "dark";

interface Visit {
  url: string;
  /** The document's status (a deliberate error page has its own). */
  status: number | readonly number[];
  /** Resolves once the page shows its data. */
  ready: (page: Page) => Promise<void>;
  theme?: Theme;
}

/** Two animation frames: effects that a commit schedules (a fetch, a CSP report) have run. */
const frames = (page: Page) =>
  page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
  );

/**
 * Until no request of the page is in flight across two frames: the requests the loaded page still
 * makes (later windows, the other profile, the run's policy) have answered and been handled.
 */
async function settled(page: Page, inFlight: () => number): Promise<void> {
  let quiet = 0;
  await expect
    .poll(
      async () => {
        await frames(page);
        quiet = inFlight() === 0 ? quiet + 1 : 0;
        return quiet >= 2;
      },
      { message: "the page's requests have answered", intervals: [0], timeout: 60_000 },
    )
    .toBe(true);
}

/**
 * One page for a spec's visits, its listeners attached once: each visit's problems go to that
 * visit's list, and what happens between visits (the last page's polls aborted as it is left for
 * about:blank) to none. A new page per visit cost a renderer's start each time: 1.5-1.6 s a visit
 * against 1.0-1.1 s (the same 12 inspector visits, 3 rounds).
 */
class Visitor {
  private sink: string[] | null = null;
  private errorDocuments = new Set<string>(); // the URLs of this visit's documents answered ≥ 400
  /** This visit's requests not yet answered (one left from the last visit may still end). */
  private inFlight = new Set<Request>();

  private constructor(private readonly page: Page) {}

  static async open(context: BrowserContext): Promise<Visitor> {
    const visitor = new Visitor(await context.newPage());
    await visitor.listen();
    return visitor;
  }

  private note(problem: string) {
    this.sink?.push(problem);
  }

  private async listen() {
    const page = this.page;
    // Reported from the page by an init script (CDP-injected, so the CSP does not block it).
    await page.exposeFunction("__cspViolation", (what: string) => this.note(`CSP: ${what}`));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        const report = (window as unknown as { __cspViolation: (w: string) => void })
          .__cspViolation;
        report(
          `${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber}`,
        );
      });
    });
    page.on("console", (m) => {
      const text = m.text();
      const bad =
        m.type() === "error" || m.type() === "warning" || /Content Security Policy/i.test(text);
      if (!bad || (DOCUMENT_STATUS.test(text) && this.errorDocuments.has(m.location().url))) return;
      this.note(`console.${m.type()}: ${text.slice(0, 400)} (${m.location().url})`);
    });
    page.on("pageerror", (e) => this.note(`pageerror: ${e.message.slice(0, 400)}`));
    page.on("request", (r) => this.inFlight.add(r));
    page.on("requestfinished", (r) => this.inFlight.delete(r));
    page.on("requestfailed", (r) => {
      this.inFlight.delete(r);
      // Next's router prefetches the pages links lead to, speculatively, and cancels a prefetch it
      // no longer needs (its link unmounted, a newer one for the same page): nothing the user waits
      // for fails. Any other failure, an aborted fetch of the page's own data included, counts.
      const prefetch = r.headers()["next-router-prefetch"] !== undefined;
      if (prefetch && r.failure()?.errorText === "net::ERR_ABORTED") return;
      this.note(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText})`);
    });
    // The document's own status is checked against the visit's; every other response must succeed.
    page.on("response", (r) => {
      const document =
        r.request().isNavigationRequest() && r.request().frame() === page.mainFrame();
      if (document && r.status() >= 400) this.errorDocuments.add(r.url());
      if (r.status() >= 400 && !document)
        this.note(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
  }

  /** What one visit saw go wrong, as lines for the failure message. */
  async problemsOf(v: Visit): Promise<string[]> {
    const page = this.page;
    const problems: string[] = [];
    this.errorDocuments = new Set();
    this.inFlight = new Set();
    this.sink = problems;
    try {
      const res = await page.goto(v.url);
      const allowed = typeof v.status === "number" ? [v.status] : v.status;
      expect(allowed, `the status of ${v.url}`).toContain(res?.status());
      if (v.theme) await expect(page.locator("html")).toHaveAttribute("data-theme", v.theme);
      // Every page names its icon, so the browser never asks for a missing /favicon.ico.
      await expect(page.locator('head link[rel="icon"]')).toHaveCount(1);
      await v.ready(page);
      await settled(page, () => this.inFlight.size);
      return [...problems];
    } finally {
      // What leaving the page aborts (a poll, a prefetch begun after it settled) is not its fault.
      this.sink = null;
      await page.goto("about:blank");
    }
  }

  close = () => this.page.close();
}

async function expectClean(context: BrowserContext, visits: Visit[]): Promise<void> {
  const found: string[] = [];
  const visitor = await Visitor.open(context);
  try {
    for (const v of visits) {
      await context.clearCookies();
      if (v.theme) {
        const base = test.info().project.use.baseURL!;
        await context.addCookies([{ name: THEME_COOKIE, value: v.theme, url: base }]);
      }
      const t0 = performance.now();
      const problems = await visitor.problemsOf(v);
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      test.info().annotations.push({
        type: "visited",
        description: `${v.url}${v.theme ? ` (${v.theme})` : ""}: ${problems.length} problem(s), ${s} s`,
      });
      found.push(...problems.map((p) => `${v.url}${v.theme ? ` [${v.theme}]` : ""}: ${p}`));
    }
  } finally {
    await visitor.close();
  }
  expect(found, `console, CSP and network problems on ${visits.length} page(s)`).toEqual([]);
}

// --- what each page shows once its data has arrived -------------------------------------------------

const visible = (l: Locator) => expect(l.first()).toBeVisible({ timeout: 60_000 });

async function homeReady(page: Page) {
  await visible(page.getByTestId("runs-row"));
}

/** The table's count is final (or the run has no table: a capture-off run without records). */
async function runReady(page: Page, hasTable: boolean) {
  await visible(page.getByTestId("run-title"));
  if (!hasTable) {
    await visible(page.getByTestId("capture-off-note"));
    return drawAll(page);
  }
  await expect(page.getByTestId("rollouts-count")).toHaveAttribute("data-state", "complete", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("rollouts-count")).toHaveText(/^\d+ of \d+ rollouts?$/);
  await drawAll(page); // the charts draw as they come into view: each is scrolled to
}

const TAB_READY: Record<InspectorTab, (page: Page) => Promise<void>> = {
  tokens: (page) => visible(page.locator(TOKEN_VIEW.painted).or(page.getByTestId("no-chain"))),
  conversation: async (page) => {
    await visible(page.getByTestId("conversation-view").or(page.getByTestId("no-chain")));
    await expect(page.getByText("Loading the conversation…")).toHaveCount(0);
  },
  call: async (page) => {
    const pane = page.getByTestId("call-detail").or(page.getByTestId("intent-detail"));
    await visible(pane.or(page.getByText("Select a call in the timeline.")));
    await expect(page.getByTestId("call-detail").getByText("Loading…")).toHaveCount(0);
  },
  chains: (page) => visible(page.getByTestId("chain-panel")),
};

async function inspectorReady(page: Page, tab: InspectorTab) {
  await visible(page.getByTestId("verdict-bar"));
  await expect(page.getByTestId("rollout-loading")).toHaveCount(0);
  await TAB_READY[tab](page);
  // The other profile's verdict and the run's policy are asked for once the page is up.
  await expect(page.getByTestId("other-profile-pending")).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("policy-pending")).toHaveCount(0, { timeout: 60_000 });
}

// --- the runs, from the server ----------------------------------------------------------------------

interface RunEntry {
  id: string;
  capture: string | null;
  /** Rollouts indexed so far: on a cold server, 0 until the run's index is built. */
  rollouts: number;
  store_rollouts: number;
  has_rollout_records: boolean;
  has_store: boolean;
}

/** Whether the run page shows the rollouts table (run-overview: a capture-off run needs rows). */
const hasTable = (r: RunEntry) => r.has_store || r.has_rollout_records || r.store_rollouts > 0;
/** Whether the run has a rollout to open. */
const hasRollouts = (r: RunEntry) => r.store_rollouts > 0 || r.has_rollout_records;

async function listRuns(page: Page): Promise<RunEntry[]> {
  const res = await page.request.get("/api/runs");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { runs: RunEntry[] }).runs;
}

/** The run's first rollout in the table, and a call of it to open in the call tab (if any). */
async function firstRollout(page: Page, run: string): Promise<{ id: string; call: string | null }> {
  const base = `/api/runs/${encodeURIComponent(run)}/rollouts`;
  // A cold index lists rollouts as it reads them: wait for the first.
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await page.request.get(`${base}?limit=1`)).json()) as {
          rollouts: { rollout_id: string }[];
        };
        id = list.rollouts[0]?.rollout_id;
        return id !== undefined;
      },
      { message: `a rollout of ${run} is listed`, timeout: 60_000 },
    )
    .toBe(true);
  const view = (await (await page.request.get(`${base}/${encodeURIComponent(id!)}`)).json()) as {
    calls: { model_call_id: string }[];
    failed: { model_call_id: string }[];
    dangling_intents: { model_call_id: string }[];
  };
  const call = [...view.calls, ...view.failed, ...view.dangling_intents][0]?.model_call_id ?? null;
  return { id: id!, call };
}

const runUrl = (run: string) => `/runs/${encodeURIComponent(run)}`;

function inspectorVisits(run: string, id: string, call: string | null): Visit[] {
  const url = `${runUrl(run)}/rollouts/${encodeURIComponent(id)}`;
  // Every tab once, and each builder profile named once beside the run's own (no parameter): the
  // tokens tab under gym-v1, the conversation under seed, the call and chains as the run decides.
  const profile: Partial<Record<InspectorTab, string>> = { tokens: "gym-v1", conversation: "seed" };
  return INSPECTOR_TABS.map((tab) => {
    const q = new URLSearchParams({ tab });
    if (tab === "call" && call !== null) q.set("call", call);
    if (profile[tab]) q.set("profile", profile[tab]);
    return { url: `${url}?${q}`, status: 200, ready: (p: Page) => inspectorReady(p, tab) };
  });
}

// --- the specs ----------------------------------------------------------------------------------------

// Each spec opens its own pages: they share the two workers with the rest of the suite.
test.describe.configure({ mode: "parallel" });

test("home and every run's page load clean", async ({ page, context }) => {
  test.setTimeout(180_000);
  const runs = await listRuns(page);
  expect(runs.length).toBeGreaterThan(5);
  await expectClean(context, [
    { url: "/", status: 200, ready: homeReady },
    ...runs.map((r) => ({
      url: runUrl(r.id),
      status: 200,
      ready: (p: Page) => runReady(p, hasTable(r)),
    })),
  ]);
});

// The runs' rollouts in two halves, one per worker: each half is a few minutes of cold builds.
for (const half of [0, 1]) {
  test(`a rollout of every run (half ${half + 1} of 2) loads clean in every inspector tab and both profiles`, async ({
    page,
    context,
  }) => {
    // A cold build of each run's rollout (the generated 500-call one takes the longest).
    test.setTimeout(600_000);
    const runs = (await listRuns(page)).filter(hasRollouts);
    expect(runs.length).toBeGreaterThan(5);
    const visits: Visit[] = [];
    for (const r of runs.filter((_, i) => i % 2 === half)) {
      const { id, call } = await firstRollout(page, r.id);
      visits.push(...inspectorVisits(r.id, id, call));
    }
    await expectClean(context, visits);
  });
}

test("compare, the group view, record columns and a masked rollout load clean", async ({
  context,
}) => {
  test.setTimeout(120_000);
  const grpo = runUrl("grpo-capture-on");
  await expectClean(context, [
    {
      // Masked, with retry rows and the masked banner (each run's first rollout is trained).
      url: `${runUrl("claude-code-capture-on")}/rollouts/3-0`,
      status: 200,
      ready: (p) => inspectorReady(p, "tokens"),
    },
    {
      // Both runs have a training curve (their trainer logs).
      url: "/compare?a=grpo-capture-on&b=grpo-capture-off",
      status: 200,
      ready: async (p) => {
        await visible(p.getByTestId("compare-headline"));
        await visible(p.getByTestId("chart-reward").locator(".recharts-line"));
      },
    },
    {
      url: `${grpo}?group=_ng_task_index`,
      status: 200,
      ready: (p) => visible(p.getByTestId("group-row")),
    },
    {
      url: `${grpo}?fields=_ng_task_index,agent_ref.name`,
      status: 200,
      ready: async (p) => {
        await runReady(p, true);
        await visible(p.getByTestId("rollout-row"));
      },
    },
  ]);
});

test("the error pages load clean", async ({ context }) => {
  test.setTimeout(120_000);
  const run = "claude-code-capture-on";
  const notFound = (missing: string) => (p: Page) =>
    expect(p.getByTestId("not-found")).toHaveAttribute("data-missing", missing);
  await expectClean(context, [
    { url: "/no-such-page", status: 404, ready: notFound("page") },
    { url: "/runs/no-such-run", status: 404, ready: notFound("run") },
    { url: "/runs/no-such-run/rollouts/0-0", status: 404, ready: notFound("run") },
    { url: `${runUrl(run)}/rollouts/no-such-rollout`, status: 404, ready: notFound("rollout") },
    {
      url: `${runUrl(run)}?sort=bogus`,
      status: 200,
      ready: (p) => visible(p.getByTestId("rollouts-bad-query")),
    },
    {
      url: `${runUrl(run)}/rollouts/0-0?profile=bogus`,
      status: [200, 400],
      ready: (p) => visible(p.getByTestId("rollout-bad-query")),
    },
  ]);
});

test("home, a run and a rollout load clean in the light and the dark theme", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const run = "opencode-before-fix";
  const { id } = await firstRollout(page, run);
  const pages: Array<Omit<Visit, "theme">> = [
    { url: "/", status: 200, ready: homeReady },
    { url: runUrl(run), status: 200, ready: (p) => runReady(p, true) },
    {
      url: `${runUrl(run)}/rollouts/${id}`,
      status: 200,
      ready: (p) => inspectorReady(p, "tokens"),
    },
    { url: "/no-such-page", status: 404, ready: (p) => visible(p.getByTestId("not-found")) },
  ];
  await expectClean(
    context,
    (["light", "dark"] as const).flatMap((theme) => pages.map((v) => ({ ...v, theme }))),
  );
});

test("the icon the pages name is served, and so is /favicon.ico", async ({ page, request }) => {
  await page.goto("/");
  const hrefs = await page
    .locator('head link[rel="icon"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute("href")!));
  expect(hrefs.length).toBeGreaterThan(0);
  // Clients that ignore the link (feed readers, bookmarks, older browsers) ask for /favicon.ico.
  for (const href of [...hrefs, "/favicon.ico"]) {
    const res = await request.get(href);
    expect(res.status(), href).toBe(200);
    expect(res.headers()["content-type"], href).toMatch(/^image\//);
    const bytes = (await res.body()).length;
    expect(bytes, href).toBeGreaterThan(0);
    // The pages' own icon is a small SVG (app/icon.svg), in the head of every page.
    if (href !== "/favicon.ico") {
      expect(res.headers()["content-type"], href).toContain("image/svg+xml");
      expect(bytes, href).toBeLessThan(1024);
    }
  }
});
