import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import {
  byRolloutId,
  isPatternSideCall,
  callsCellText,
  countExchanges,
  readEntries,
  readRecords,
  rolloutId,
  sideCallPatterns,
  storedRollouts,
  type Entry,
} from "./support/fixture-truth";
import { FIXTURE_RUNS } from "./support/paths";
import { drawAll } from "./support/charts";

const CC = "claude-code-capture-on";
/** The builder's mask reason for each masked scenario the generator writes (fixtures/fixtures.test.ts holds each). */
const MASK_REASON_OF_SCENARIO: Record<string, string> = {
  final_retry_unresolved: "unresolved_retry",
  lost_call: "capture_incomplete",
  all_side_calls: "all_side_calls",
  logprob_mismatch: "build_error",
};

/** Counts of each key, in key order (numeric keys numerically), as the charts list them. */
function tally(keys: string[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
}

/** Side calls of one rollout by reason, from its token file: the run's patterns, then self-calibration (spec §1). */
function sideCallReasons(entries: Entry[], patterns: string[]): string[] {
  const reasons = entries.filter((e) => isPatternSideCall(e, patterns)).map(() => "pattern");
  const mass = new Map<string, number>();
  for (const e of entries)
    if (e.requested_model && !isPatternSideCall(e, patterns))
      mass.set(
        e.requested_model,
        (mass.get(e.requested_model) ?? 0) + e.generation_token_ids.length,
      );
  if (mass.size < 2) return reasons;
  const policy = [...mass].sort(([a, x], [b, y]) => y - x || (a < b ? 1 : -1))[0]![0];
  return [
    ...reasons,
    ...entries
      .filter(
        (e) => e.requested_model && !isPatternSideCall(e, patterns) && e.requested_model !== policy,
      )
      .map(() => "self_calibration"),
  ];
}

/** The numbers printed on a chart's bars, in order. */
async function barLabels(chart: Locator): Promise<string[]> {
  return chart.locator("text.recharts-label").allTextContents();
}
async function axisLabels(chart: Locator): Promise<string[]> {
  return chart
    .locator('text.recharts-cartesian-axis-tick-value[orientation="bottom"]')
    .allTextContents();
}

const BEFORE = "opencode-before-fix";

interface Exchange {
  model_call_id: string;
  status_code: number;
  response: { detail: Array<{ type: string; loc: unknown[] }> };
}

/** A rollout's model-call capture file, every exchange. */
function captureOf(run: string, id: string): Exchange[] {
  return readFileSync(path.join(FIXTURE_RUNS, run, "model-calls", `${id}.capture.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Exchange);
}

/** A FastAPI `loc` as the banner writes it: `body` dropped, keys dotted, indices bracketed. */
const locText = (loc: unknown[]): string =>
  loc
    .slice(loc[0] === "body" ? 1 : 0)
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");

test("the 422 run: alert, status codes and verdict charts carry the real numbers", async ({
  page,
  request,
}) => {
  const health = await (await request.get("/api/runs/opencode-before-fix/health")).json();
  expect(health).toMatchObject({
    rollouts: 12,
    masked: 0,
    status_codes: [
      { key: "200", count: 12 },
      { key: "422", count: 12 },
    ],
  });
  // From the capture files: which rollouts got a failed call, and what 0-0's said.
  const ids = storedRollouts(BEFORE);
  const failedOf = (id: string) => captureOf(BEFORE, id).filter((x) => x.status_code >= 400);
  const cut = ids.filter((id) => failedOf(id).length > 0);
  const first = failedOf(cut[0]!)[0]!;
  const detail = first.response.detail[0]!;
  await page.goto(`/runs/${BEFORE}`);
  const alert = page.locator('[data-testid="alert"][data-kind="cut_short"]');
  await expect(alert).toContainText(
    `${cut.length} of ${ids.length} rollouts were cut short by a failed model call, all trained on with a warning`,
  );
  await expect(alert).toHaveAttribute("data-verdict", "trained_with_warnings");
  await expect(alert).toContainText(
    `${cut[0]}: call ${readEntries(BEFORE, cut[0]!).length + 1} got HTTP ${first.status_code} ${detail.type} at ${locText(detail.loc)}, and the agent stopped`,
  );
  await drawAll(page);
  const status = page.getByTestId("chart-status");
  await expect(status.locator(".recharts-bar-rectangle")).toHaveCount(2);
  expect(await axisLabels(status)).toEqual(["200", "422"]);
  expect(await barLabels(status)).toEqual(["12", "12"]);
  expect(await axisLabels(page.getByTestId("chart-error-categories"))).toEqual(["client_error"]);
  // One severity model: all of them trained with the cut-short warning, none plain or masked.
  const verdicts = page.getByTestId("chart-verdicts");
  expect(await axisLabels(verdicts)).toEqual(["trained", "trained, warnings", "masked"]);
  // Every bar carries its count, a known 0 included.
  expect(await barLabels(verdicts)).toEqual(["0", String(cut.length), "0"]);
  await expect(page.getByTestId("kpi-masked")).toHaveText("masked0 (0.0%)");
  await expect(page.getByTestId("kpi-reward")).toContainText("0.000");
  await page.getByTestId("filter-cut-short").check();
  await expect(page.getByTestId("rollouts-count")).toHaveText("12 of 12 rollouts");
});

test("claude-code charts carry the numbers in the run's files", async ({ page }) => {
  const records = readRecords(CC);
  const masked = records.filter((r) => r.mask_sample);
  const reasons = tally(
    masked.map(
      (r) => MASK_REASON_OF_SCENARIO[r.scenario ?? ""] ?? `unexpected scenario ${r.scenario}`,
    ),
  );
  const stores = storedRollouts(CC).map((id) => readEntries(CC, id));
  const calls = tally(stores.map((entries) => String(entries.length)));
  const sides = tally(stores.flatMap((entries) => sideCallReasons(entries, sideCallPatterns(CC))));
  await page.goto(`/runs/${CC}`);
  await drawAll(page);
  const reasonChart = page.getByTestId("chart-mask-reasons");
  await expect(reasonChart.locator(".recharts-bar-rectangle")).toHaveCount(reasons.length);
  expect(await barLabels(reasonChart)).toEqual(reasons.map(([, n]) => String(n)));
  expect(await axisLabels(page.getByTestId("chart-calls"))).toEqual(calls.map(([k]) => k));
  expect(await barLabels(page.getByTestId("chart-calls"))).toEqual(calls.map(([, n]) => String(n)));
  expect(sides.map(([k]) => k)).toEqual(["pattern", "self_calibration"]);
  expect(await barLabels(page.getByTestId("chart-side-calls"))).toEqual(
    sides.map(([, n]) => String(n)),
  );
  expect(await axisLabels(page.getByTestId("chart-fallbacks"))).toEqual([
    "parent call id missing",
    "parent digest mismatch",
  ]);
  await expect(page.getByTestId("kpi-masked")).toHaveText(
    `masked${masked.length} (${((masked.length / records.length) * 100).toFixed(1)}%)`,
  );
  await page.screenshot({ path: "test-results/run-overview.png", fullPage: true });
});

test("sorting, filtering and searching the rollouts table; filters live in the URL", async ({
  page,
}) => {
  const all = readRecords(CC).map((r) => ({
    n_calls: countExchanges(CC, rolloutId(r)),
    mask_sample: r.mask_sample === true,
    error: r._ng_token_capture?.error ?? null,
  }));
  await page.goto("/runs/claude-code-capture-on");
  await expect(page.getByTestId("rollouts-count")).toHaveText("40 of 40 rollouts");
  const calls = page.getByRole("columnheader", { name: /Calls/ });
  await page.getByTestId("sort-n_calls").click(); // numbers sort largest first
  await expect(page).toHaveURL(/sort=n_calls&dir=desc/);
  await expect(calls).toHaveAttribute("aria-sort", "descending");
  const callsCell = page.getByTestId("rollout-row").first().locator('.vcell[data-col="n_calls"]');
  await expect(callsCell).toHaveText(callsCellText(Math.max(...all.map((r) => r.n_calls))));
  await page.getByTestId("sort-n_calls").click();
  await expect(calls).toHaveAttribute("aria-sort", "ascending");
  await expect(callsCell).toHaveText(callsCellText(Math.min(...all.map((r) => r.n_calls))));
  await page.getByTestId("filter-verdict").selectOption("masked");
  const masked = all.filter((r) => r.mask_sample);
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${masked.length} of 40 rollouts`);
  await expect(page.getByTestId("rollout-row")).toHaveCount(masked.length);
  await page.getByTestId("filter-verdict").selectOption("");
  await page.getByTestId("filter-q").fill("ValueError");
  const withError = all.filter((r) => r.error?.includes("ValueError"));
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${withError.length} of 40 rollouts`);
  await expect(page).toHaveURL(/q=ValueError/);
  // A deep link restores the table.
  await page.goto("/runs/claude-code-capture-on?verdict=masked&sort=n_calls&dir=desc&hide=bytes");
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${masked.length} of 40 rollouts`);
  await expect(page.getByTestId("col-bytes")).not.toBeChecked();
  await expect(page.getByRole("columnheader", { name: "Size" })).toHaveCount(0);
});

test("the table's filters wait for the page to take them: disabled as served, enabled once hydrated", async ({
  browser,
  page,
  baseURL,
}) => {
  // A select changed before hydration reverts to its value, and one changed before Next's router
  // takes URL updates filtered nothing: both lost a choice (components/shared/url-state).
  const off = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const served = await off.newPage();
  await served.goto("/runs/claude-code-capture-on");
  for (const id of ["filter-reason", "filter-verdict", "filter-cut-short", "filter-q"])
    await expect(served.getByTestId(id)).toBeDisabled();
  await off.close();
  await page.goto("/runs/claude-code-capture-on");
  await expect(page.getByTestId("filter-reason")).toBeEnabled();
  await page.getByTestId("filter-reason").selectOption("torn_tail");
  await expect(page.getByTestId("rollouts-count")).toHaveText(/^1 of 40 rollouts$/);
});

test("a row opens its rollout", async ({ page }) => {
  await page.goto("/runs/claude-code-capture-on?verdict=masked");
  const row = page.locator('[data-testid="rollout-row"][data-rollout-id="3-0"]');
  await row.getByRole("link", { name: "3-0" }).click();
  // The table's query goes along (previous / next follow it).
  await expect(page).toHaveURL(/\/runs\/claude-code-capture-on\/rollouts\/3-0\?verdict=masked$/);
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute("data-severity", "masked");
  await expect(page.getByTestId("verdict-sentences")).toContainText("Unresolved final retry:");
  const masked = readRecords(CC).filter((r) => r.mask_sample).length;
  await expect(page.getByTestId("nav-position")).toHaveText(new RegExp(`^\\d+ of ${masked}$`));
});

test("CSV and JSON exports hold the filtered table", async ({ page, request }) => {
  const maskedIds = readRecords(CC)
    .filter((r) => r.mask_sample)
    .map(rolloutId)
    .sort(byRolloutId);
  await page.goto("/runs/claude-code-capture-on?verdict=masked&sort=rollout_id");
  const href = await page.getByTestId("export-csv").getAttribute("href");
  expect(href).toContain("verdict=masked");
  const res = await request.get(href!);
  expect(res.headers()["content-type"]).toContain("text/csv");
  const lines = (await res.text()).trim().split("\n");
  expect(lines[0]).toBe(
    "rollout_id,step,reward,mask_sample,severity,severity_reasons,mask_reasons,error,n_calls,chains,roots,delivered_fraction,expert_fallback_fraction,side_calls,quarantined,failed_calls,lost_calls,status_codes,cut_short,bytes,source",
  );
  // Every text cell is quoted (no `,` or `;` in it can start a cell); numbers and booleans are bare.
  expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(maskedIds.map((id) => `"${id}"`));
  expect(lines.find((l) => l.startsWith('"3-0",'))).toMatch(
    /^"3-0",,1,true,"masked","unresolved_retry( [a-z_]+)*","unresolved_retry",,7,1,1,0\.856\d*,,2,1,0,0,"200:7",,\d+,"store"$/,
  );
  const json = await (
    await request.get((await page.getByTestId("export-json").getAttribute("href"))!)
  ).json();
  expect(json.map((r: { rollout_id: string }) => r.rollout_id)).toEqual(maskedIds);
  expect(json.every((r: { mask_sample: boolean }) => r.mask_sample)).toBe(true);
});

test("bad table parameters get a clear message", async ({ request }) => {
  const res = await request.get("/api/runs/claude-code-capture-on/rollouts?sort=__proto__");
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toMatch(/^sort: /);
  expect((await request.get("/api/runs/nope/health")).status()).toBe(404);
});

test("a note's table link shows its filter in the table's alert control, and clears there", async ({
  page,
}) => {
  await page.goto(`/runs/${CC}`);
  const note = page.locator('[data-testid="health-note"][data-kind="profile_disagreement"]');
  const count = Number((await note.innerText()).match(/^(\d+) of /)![1]);
  await note.getByRole("link", { name: "list them in the table" }).click();
  await expect(page).toHaveURL(/alert=profile_disagreement/);
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${count} of 40 rollouts`);
  // The applied filter is visible where filters are, not hidden behind "all".
  const control = page.getByTestId("filter-alert");
  await expect(control).toHaveValue("profile_disagreement");
  await control.selectOption("");
  await expect(page).not.toHaveURL(/alert=/);
  await expect(page.getByTestId("rollouts-count")).toHaveText("40 of 40 rollouts");
});
