// One call's routes against its tokens (docs/experts.md): a route per token but the last, the last
// accepted too (S = P + G − 1 or P + G); rows missing at the end and rows of all −1 (replay fell
// back to the trainer's router) are fallback. Rows are read one at a time from the typed array.
// Not responsible for decoding (./codec) nor for which calls count (the main chain, lib/rollout).
import { decodeRoutes, type Routes } from "./codec";

/** A problem with the routes' row count for a call of `prompt` + `generated` tokens, or null. */
export function rowCountProblem(routes: Routes, prompt: number, generated: number): string | null {
  const total = prompt + generated;
  if (routes.rows <= total) return null;
  return `${routes.rows} route rows for ${prompt} prompt + ${generated} generated tokens (at most ${total}: ${total - 1} or ${total}, fewer when rows are missing at the end)`;
}

/**
 * A call's `routed_experts` as routes it can use: decoded (lib/store decodes once while reading;
 * another reader's raw field is decoded here), null when absent, malformed or too long.
 */
export function callRoutes(raw: unknown, prompt: number, generated: number): Routes | null {
  const d = decodeRoutes(raw);
  if (d === null || !d.ok) return null;
  return rowCountProblem(d.routes, prompt, generated) === null ? d.routes : null;
}

/** Whether row `r` is a fallback: missing, or all −1. */
export function isFallbackRow(routes: Routes, r: number): boolean {
  if (r >= routes.rows) return true;
  const width = routes.layers * routes.topk;
  const { data } = routes;
  for (let i = r * width, end = i + width; i < end; i++) if (data[i] !== -1) return false;
  return true;
}

/** Row `r` as experts [layer][k], or null when it is a fallback or missing. */
export function routeRow(routes: Routes, r: number): number[][] | null {
  if (r < 0 || isFallbackRow(routes, r)) return null;
  const out: number[][] = [];
  let i = r * routes.layers * routes.topk;
  for (let l = 0; l < routes.layers; l++) {
    const ks: number[] = [];
    for (let k = 0; k < routes.topk; k++) ks.push(routes.data[i++] as number);
    out.push(ks);
  }
  return out;
}

/** A call's expected routes (P + G − 1) and how many of them fell back or are missing. */
export interface RouteCount {
  expected: number;
  fallback: number;
}

/** The count for one call; a call without routes has all of its expected routes missing. */
export function countCallRoutes(
  routes: Routes | null,
  prompt: number,
  generated: number,
): RouteCount {
  const expected = Math.max(0, prompt + generated - 1);
  if (routes === null) return { expected, fallback: expected };
  let fallback = 0;
  for (let r = 0; r < expected; r++) if (isFallbackRow(routes, r)) fallback++;
  return { expected, fallback };
}

/**
 * The fallback fraction of calls (`r3/routed_experts_fallback_token_route_fraction` in NeMo-RL):
 * null when none carries routes (unknown, never 0), else fallback over expected routes.
 */
export function fallbackFraction(
  calls: ReadonlyArray<{ routes: Routes | null; prompt: number; generated: number }>,
): { fraction: number | null; count: RouteCount } {
  const count = { expected: 0, fallback: 0 };
  let any = false;
  for (const c of calls) {
    if (c.routes !== null) any = true;
    const n = countCallRoutes(c.routes, c.prompt, c.generated);
    count.expected += n.expected;
    count.fallback += n.fallback;
  }
  if (!any || count.expected === 0) return { fraction: null, count };
  return { fraction: count.fallback / count.expected, count };
}
