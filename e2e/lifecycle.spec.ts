// The store's lifecycle on the run page (docs/gym-v1-store.md): each rollout's state as its files give
// it, a retired tombstone's record beside the consumer's answer, attempts `R-aN` linked both ways,
// and the alert for token ids outside 0…2^31−1 opening the table filtered to those rollouts.
// Expected values come from the store files (fixtures/runs/gym-main-example, the gym-v1 cases).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";
import { lifecycleStateIn } from "./support/gym-cases";

const RUN = "gym-main-example";
const TOKENS = path.join(FIXTURE_RUNS, RUN, "tokens");
const row = (id: string) => `[data-testid="rollout-row"][data-rollout-id="${id}"]`;

test("each rollout's lifecycle and a retired tombstone's record, as the store's files say", async ({
  page,
}) => {
  const ids = [...new Set(readdirSync(TOKENS).map((n) => n.split(".tokens")[0] as string))];
  await page.goto(`/runs/${RUN}`);
  for (const id of ids)
    await expect(page.locator(row(id)).getByTestId("rollout-lifecycle"), id).toHaveAttribute(
      "data-state",
      lifecycleStateIn(TOKENS, id),
    );
  const retired = ids.filter((id) => lifecycleStateIn(TOKENS, id) === "retired");
  expect(retired).toEqual(["3-0"]);
  const state = JSON.parse(readFileSync(path.join(TOKENS, "3-0.tokens.state.json"), "utf8")) as {
    snapshot_id: string;
    version: number;
  };
  const badge = page.locator(row("3-0")).getByTestId("rollout-lifecycle").locator(".badge");
  await expect(badge).toHaveText("retired");
  // What the tombstone recorded, beside Gym main's answer (docs/gym-v1-store.md §1).
  await expect(badge).toHaveAttribute(
    "title",
    new RegExp(`snapshot ${state.snapshot_id}, version ${state.version}`),
  );
  await expect(badge).toHaveAttribute(
    "title",
    /the consumer answers RuntimeError: Token capture for rollout 3-0 is retired/,
  );
});

test("attempts of one rollout link to each other's inspector page", async ({ page }) => {
  const files = readdirSync(TOKENS);
  expect(files).toContain("0-0.tokens.jsonl");
  expect(files).toContain("0-0-a1.tokens.jsonl");
  await page.goto(`/runs/${RUN}`);
  const toAttempt = page.locator(row("0-0")).getByTestId("rollout-attempt");
  await expect(toAttempt).toHaveText(["0-0-a1"]);
  await toAttempt.click();
  await expect(page).toHaveURL(new RegExp(`/runs/${RUN}/rollouts/0-0-a1(\\?|$)`));
  await expect(page.getByTestId("verdict-bar")).toBeVisible();
  await page.goto(`/runs/${RUN}`);
  const back = page.locator(row("0-0-a1")).getByTestId("rollout-attempt");
  await expect(back).toHaveText(["0-0"]);
  await back.click();
  await expect(page).toHaveURL(new RegExp(`/runs/${RUN}/rollouts/0-0(\\?|$)`));
  // A rollout of no attempt group lists none.
  await page.goto(`/runs/${RUN}`);
  await expect(page.locator(row("1-0")).getByTestId("rollout-attempts")).toHaveCount(0);
});

test("token ids outside 0…2^31−1: an alert that opens the table filtered to them", async ({
  page,
}) => {
  // gym-v1-cases/negative-token-id: one call whose prompt starts with id -1 (Gym trains on it).
  const run = "gym-v1-negative-token-id";
  await page.goto(`/runs/${run}`);
  const alert = page.locator('[data-testid="alert"][data-kind="outside_token_ids"]');
  await expect(alert).toContainText("1 rollout carries token ids outside 0…2^31−1");
  await alert.getByTestId("alert-table-link").click();
  await expect(page).toHaveURL(/[?&]reason=out_of_vocabulary(&|#|$)/);
  await expect(page.getByTestId("rollout-row")).toHaveCount(1);
  await expect(page.locator(row("r0")).getByTestId("severity-pill")).toHaveAttribute(
    "data-severity",
    "trained_with_warnings",
  );
});
