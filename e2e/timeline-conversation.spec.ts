// The call timeline's readable columns and keyboard edges, conversation shading without template
// markers, alert links to the filtered run table and warning reasons in the table's reason filter
// (the icon: console-clean.spec). Expected values are read from the sample runs' files.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { GENERATED_ROLLOUT, LARGE_RUN } from "./support/paths";

const RUNS = path.join(process.cwd(), "fixtures", "runs");
const inspector = (run: string, rollout: string, query = "") =>
  `/runs/${run}/rollouts/${rollout}${query ? `?${query}` : ""}`;
const jsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // a torn last line
      }
    });

test.use({ viewport: { width: 1400, height: 900 } });

/** Cells of the timeline's rows whose text is cut off (wider than the cell shows). */
async function clippedCells(page: Page): Promise<string[]> {
  return page.getByTestId("timeline-row").evaluateAll((rows) =>
    rows.flatMap((row) => {
      const id = row.getAttribute("data-call-number") ?? row.getAttribute("data-call-id");
      const cells = ["timeline-model", "timeline-lengths", "timeline-status", "timeline-role"];
      return cells.flatMap((t) => {
        const cell = row.querySelector<HTMLElement>(`[data-testid="${t}"]`);
        // The role cell's text is its label (and reason) inside it.
        const inner = t === "timeline-role" ? cell?.lastElementChild : cell;
        if (!cell || !(inner instanceof HTMLElement)) return [];
        return inner.scrollWidth > inner.clientWidth ? [`${id} ${t}: ${cell.textContent}`] : [];
      });
    }),
  );
}

test.describe("call timeline", () => {
  for (const [run, id] of [
    ["claude-code-capture-on", "2-0"],
    ["claude-code-capture-on", "12-0"],
    ["opencode-after-fix", "0-0"],
  ] as const) {
    test(`${run} ${id}: model, lengths, status and role are read whole at 1400 px`, async ({
      page,
    }) => {
      await page.goto(inspector(run, id));
      const rows = page.getByTestId("timeline-row");
      await expect(rows.first()).toBeVisible();
      expect(await clippedCells(page)).toEqual([]);
      const overflow = await rows.evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.dataset.callId),
      );
      expect(overflow).toEqual([]);
      // The served model is in the row as the token file's entries name it.
      const models = new Set(
        jsonl(path.join(RUNS, run, "tokens", `${id}.tokens.jsonl`)).map((e) => e.requested_model),
      );
      for (const m of models)
        await expect(rows.filter({ hasText: String(m) }).first()).toBeVisible();
    });
  }

  test("the 500-call rollout: the first screen of rows fits the panel", async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(inspector(LARGE_RUN, GENERATED_ROLLOUT), { timeout: 120_000 });
    const rows = page.getByTestId("timeline-row");
    await expect(rows.first()).toBeVisible({ timeout: 120_000 });
    const overflow = await rows.evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.dataset.callNumber),
    );
    expect(overflow).toEqual([]);
    expect(await clippedCells(page)).toEqual([]);
  });

  test("with nothing selected, ↓ selects the first call; Home, End and ↑ stop at the edges", async ({
    page,
  }) => {
    await page.goto(inspector("claude-code-capture-on", "12-0"));
    const rows = page.getByTestId("timeline-row");
    await expect(rows.first()).toBeVisible();
    expect(new URL(page.url()).searchParams.get("call")).toBeNull();
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-call-id")!));
    expect(ids.length).toBeGreaterThan(3);
    const at = (id: string) => new RegExp(`[?&]call=${id}(&|$)`);
    const selected = (id: string) =>
      expect(page.locator(`[data-testid="timeline-row"][data-call-id="${id}"]`)).toHaveAttribute(
        "aria-selected",
        "true",
      );
    await page.locator('[data-testid="call-timeline"] [role="tree"]').focus();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(at(ids[0]!));
    await selected(ids[0]!);
    await page.keyboard.press("ArrowUp"); // already first: stays
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(at(ids[1]!));
    await page.keyboard.press("End");
    await expect(page).toHaveURL(at(ids.at(-1)!));
    await page.keyboard.press("ArrowDown"); // already last: stays
    await page.keyboard.press("ArrowUp");
    await expect(page).toHaveURL(at(ids.at(-2)!));
    await page.keyboard.press("Home");
    await expect(page).toHaveURL(at(ids[0]!));
    await selected(ids[0]!);
  });

  test("with nothing selected, End selects the last call", async ({ page }) => {
    await page.goto(inspector("opencode-after-fix", "0-0"));
    const rows = page.getByTestId("timeline-row");
    await expect(rows).toHaveCount(2);
    const last = await rows.nth(1).getAttribute("data-call-id");
    await page.locator('[data-testid="call-timeline"] [role="tree"]').focus();
    await page.keyboard.press("End");
    await expect(page).toHaveURL(new RegExp(`[?&]call=${last}(&|$)`));
  });
});

test("conversation shading shows each reply's own text, without chat-template markers", async ({
  page,
}) => {
  // fixtures/generator/opencode.ts: task 0's last reply reports what the bash command printed.
  const answer = "The command printed";
  await page.goto(inspector("opencode-after-fix", "0-0", "tab=conversation"));
  const replies = page.locator('[data-testid="conversation-message"][data-role="assistant"]');
  await expect(replies.last()).toContainText(answer);
  await page.getByTestId("conversation-shade-toggle").click();
  await expect(page).toHaveURL(/shade=1/);
  const count = await replies.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const reply = replies.nth(i);
    await expect(reply).toHaveAttribute("data-shaded", "ready");
    const text = (await reply.getByTestId("conversation-shaded").allInnerTexts()).join("\n");
    expect(text).not.toMatch(/<\|im_(start|end)\|>/);
    expect(text).not.toMatch(/^\s*assistant\n/);
    // Generated tokens are marked as such (shaded by probability, or plain generated).
    expect(
      await reply.locator('[data-testid="conversation-shaded"] span[data-mask="1"]').count(),
    ).toBeGreaterThan(0);
  }
  const last = (await replies.last().getByTestId("conversation-shaded").allInnerTexts()).join("");
  expect(last).toContain(answer);
});

test("opencode-before-fix: the cut-short alert lists all its rollouts in the run table", async ({
  page,
}) => {
  const dir = path.join(RUNS, "opencode-before-fix", "model-calls");
  const failed = readdirSync(dir).filter((f) =>
    jsonl(path.join(dir, f)).some((x) => Number(x.status_code) >= 400),
  );
  await page.goto("/runs/opencode-before-fix");
  const alert = page.locator('[data-testid="alert"][data-kind="cut_short"]');
  await alert.getByTestId("alert-table-link").click();
  await expect(page).toHaveURL(/\/runs\/opencode-before-fix\?cut_short=1#rollouts$/);
  // The table is far below the alerts: the link scrolls to it.
  await expect(page.locator("h2#rollouts")).toBeInViewport();
  await expect(page.getByTestId("filter-cut-short")).toBeChecked();
  await expect(page.getByTestId("rollouts-count")).toHaveText(
    `${failed.length} of ${readdirSync(path.join(RUNS, "opencode-before-fix", "tokens")).length} rollouts`,
  );
  await alert.getByTestId("alert-rollout").first().click();
  await expect(page.getByTestId("verdict-bar")).toBeVisible();
});

test("the reason filter offers warnings: torn tail lists the torn rollout", async ({ page }) => {
  const dir = path.join(RUNS, "claude-code-capture-on", "tokens");
  const files = readdirSync(dir).filter((f) => f.endsWith(".tokens.jsonl"));
  const torn = files.filter((f) => !readFileSync(path.join(dir, f), "utf8").endsWith("\n"));
  expect(torn).toHaveLength(1);
  await page.goto("/runs/claude-code-capture-on");
  const reason = page.getByTestId("filter-reason");
  await expect(reason.locator('optgroup[label="warnings"] option[value="torn_tail"]')).toHaveCount(
    1,
  );
  await reason.selectOption("torn_tail");
  await expect(page).toHaveURL(/reason=torn_tail/);
  await expect(page.getByTestId("rollouts-count")).toHaveText(/^1 of \d+ rollouts$/);
  await expect(page.getByTestId("rollout-row")).toHaveCount(1);
  await expect(page.getByTestId("rollout-row")).toContainText(
    torn[0]!.replace(".tokens.jsonl", ""),
  );
});

test("the torn rollout's delivered fraction says what it is of, and that the torn call is not in it", async ({
  page,
}) => {
  const dir = path.join(RUNS, "claude-code-capture-on", "tokens");
  const file = readdirSync(dir).find(
    (f) => f.endsWith(".tokens.jsonl") && !readFileSync(path.join(dir, f), "utf8").endsWith("\n"),
  )!;
  // The generated tokens its whole lines captured, side calls left out: the run's side-call
  // pattern is "haiku" (fixtures/generator/claude-code.ts), the harness's small model.
  const entries = jsonl(path.join(dir, file));
  const side = (e: (typeof entries)[number]) => String(e.requested_model).includes("haiku");
  const tokens = (es: typeof entries) =>
    es.reduce((n, e) => n + (e.generation_token_ids as number[]).length, 0);
  const captured = tokens(entries.filter((e) => !side(e)));
  const sides = entries.filter(side);
  await page.goto(inspector("claude-code-capture-on", file.replace(".tokens.jsonl", "")));
  const of = page.getByTestId("verdict-delivered-of");
  // Its side calls' tokens are outside the share, and it says how many.
  const outside =
    sides.length > 0
      ? `, not its ${sides.length === 1 ? "side call's" : `${sides.length} side calls'`} ${tokens(sides).toLocaleString("en-US")}`
      : "";
  await expect(of).toHaveText(
    `of ${captured.toLocaleString("en-US")} generated tokens captured${outside}, not counting the torn last line's call`,
  );
});
