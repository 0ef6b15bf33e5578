import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  chainFacts,
  fmtInt,
  heaviestChain,
  linkByPrefix,
  readEntries,
  readLastEntry,
} from "./support/fixture-truth";
import { E2E_RUNS, GENERATED_ROLLOUT, LARGE_RUN, LONG_RUN } from "./support/paths";
import {
  settledDom,
  scrollStep,
  expectBounded,
  TOKEN_VIEW,
  type DomState,
} from "./support/token-view";

// Generated rollouts in the e2e runs root (e2e/support/prepare-runs.ts), checked against their files.
//
// The bound on token spans: at 1280×800 the token scroll area is 60vh = 480 px high; a screen of
// it shows a few hundred tokens (20 lines of 20 today; text that wraps at the panel edge fits
// ~35 short tokens on a line). Rendering one screen of overscan on each side stays well under
// 2,000, while mounting a whole loaded 2,000-token window, or the chain, passes it: 2,000 is 3.6%
// of the long session's chain and 1% of the 200k-token one.
const MAX_TOKEN_SPANS = 2_000;
test.use({ viewport: { width: 1280, height: 800 } });

test("the long session's token view stays virtualised while every token is scrolled past", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const entries = readEntries(LONG_RUN, GENERATED_ROLLOUT, E2E_RUNS);
  const chain = chainFacts(heaviestChain(linkByPrefix(entries, [])));
  expect(
    chain.length,
    "the generated chain is long enough to prove virtualisation",
  ).toBeGreaterThanOrEqual(50_000);
  expect(chain.length).toBe(
    entries.at(-1)!.prompt_token_ids.length + entries.at(-1)!.generation_token_ids.length,
  ); // one linear chain

  await page.goto(`/runs/${LONG_RUN}/rollouts/${GENERATED_ROLLOUT}`);
  await expect(page.locator(TOKEN_VIEW.counts)).toContainText(
    `${fmtInt(chain.length)} tokens · ${fmtInt(chain.generated)} generated`,
  );
  const states: DomState[] = [];
  for (let step = 0; ; step++) {
    expect(step, "scroll steps before the end").toBeLessThan(5_000);
    const s = await settledDom(page, chain.length);
    states.push(s);
    expect(s.contiguous, `painted positions ${s.min}..${s.max} have a gap`).toBe(true);
    if (s.atEnd) break;
    await scrollStep(page, { page: 0.9 });
  }
  expectBounded(states, MAX_TOKEN_SPANS);
  // Each step paints at least the visible area and moves less than one screen: together they paint every token.
  let reached = -1;
  for (const s of states) {
    expect(s.min, `a gap before position ${s.min}`).toBeLessThanOrEqual(reached + 1);
    reached = Math.max(reached, s.max);
  }
  expect(reached).toBe(chain.length - 1);
  await expect(page.locator(TOKEN_VIEW.at(chain.length - 1))).toBeVisible();
  await expect(page.locator(TOKEN_VIEW.at(chain.length - 1))).toHaveAttribute("data-mask", "1"); // the final <|im_end|> is generated
});

test("the 500-call, 200k-token rollout: jumps end to end with the DOM bounded and the last token reached", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const last = readLastEntry(
    path.join(E2E_RUNS, LARGE_RUN, "tokens", `${GENERATED_ROLLOUT}.tokens.jsonl`),
  );
  const total = last.prompt_token_ids.length + last.generation_token_ids.length; // append-only: the last call ends the one chain
  expect(total, "about 200k tokens").toBeGreaterThan(190_000);

  await page.goto(`/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`, { timeout: 120_000 });
  await expect(page.locator(TOKEN_VIEW.counts)).toContainText(`${fmtInt(total)} tokens`, {
    timeout: 120_000,
  });
  const states: DomState[] = [];
  const jumps = 24;
  for (let i = 0; i <= jumps; i++) {
    await scrollStep(page, { to: i / jumps });
    states.push(await settledDom(page, total));
  }
  expectBounded(states, MAX_TOKEN_SPANS);
  expect(states.at(-1)!.atEnd).toBe(true);
  expect(states.at(-1)!.max).toBe(total - 1);
  await expect(page.locator(TOKEN_VIEW.at(total - 1))).toBeVisible();
});
