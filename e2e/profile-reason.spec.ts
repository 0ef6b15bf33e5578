// Every page says in one line which builder profile decided and why. gym-main-v1's run.json says
// `auto` and its store holds Gym main's state files, so auto takes gym-v1 for that reason;
// opencode-before-fix's run.json names seed. Expected values come from the fixture files.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";

const GYM = "gym-main-v1";
const TOKENS = path.join(FIXTURE_RUNS, GYM, "tokens");
const GYM_LINE = "Gym main store: state files found → gym-v1";

test("the fixtures are what this spec assumes", () => {
  const manifest = JSON.parse(readFileSync(path.join(FIXTURE_RUNS, GYM, "run.json"), "utf8"));
  expect(manifest.builder_profile).toBe("auto");
  expect(readdirSync(TOKENS).some((n) => n.endsWith(".tokens.state.json"))).toBe(true);
  expect(existsSync(path.join(FIXTURE_RUNS, "opencode-before-fix", "run.json"))).toBe(true);
});

test("the run list, the run page and the inspector say which profile decided and why", async ({
  page,
}) => {
  await page.goto("/");
  const gymRow = page.locator("tr", { has: page.locator(`a[href="/runs/${GYM}"]`) }).first();
  await expect(gymRow.getByTestId("run-profile-reason")).toHaveText(GYM_LINE);
  const seedRow = page
    .locator("tr", { has: page.locator('a[href="/runs/opencode-before-fix"]') })
    .first();
  await expect(seedRow.getByTestId("run-profile-reason")).toHaveText(
    "builder_profile: seed in run.json",
  );

  await page.goto(`/runs/${GYM}`);
  await expect(page.getByTestId("run-profile-reason")).toHaveText(
    `Builder profile gym-v1 (Gym main's builder, as trainers run it): ${GYM_LINE}`,
  );

  const rollout = (readdirSync(TOKENS).find((n) => n.endsWith(".tokens.jsonl")) as string).split(
    ".tokens",
  )[0] as string;
  await page.goto(`/runs/${GYM}/rollouts/${rollout}`);
  await expect(page.getByTestId("rollout-profile-reason")).toHaveText(GYM_LINE);
  await page.getByTestId("profile-seed").click();
  await expect(page.getByTestId("rollout-profile-reason")).toHaveText(
    "profile=seed asked for on this page",
  );
});
