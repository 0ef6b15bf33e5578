// URLs that carry the rollouts table's sort and filters from the run page into the inspector, so
// previous / next follow the table's order: the table's row links, the neighbours route and the
// inspector's previous / next links. Pure; the order itself is lib/runs/rollout-query neighborsOf.

/** The rollouts table's URL parameters that decide its rows and order (not the window or columns). */
export const TABLE_QUERY_KEYS = [
  "sort",
  "dir",
  "verdict",
  "severity",
  "reason",
  "status",
  "step",
  "cut_short",
  "q",
] as const;

/** Inspector state that still means something on another rollout: the builder profile, the tab. */
export const KEPT_ON_NAVIGATION = ["profile", "tab"] as const;

/** What the helpers read parameters from: URLSearchParams, or Next's read-only search params. */
export interface ParamSource {
  get(key: string): string | null;
}

function pick(
  params: ParamSource,
  keys: readonly string[],
  into = new URLSearchParams(),
): URLSearchParams {
  for (const k of keys) {
    const v = params.get(k);
    if (v) into.set(k, v);
  }
  return into;
}

/** The table's sort and filters out of a URL's parameters (empty ones dropped). */
export function tableQueryOf(params: ParamSource): URLSearchParams {
  return pick(params, TABLE_QUERY_KEYS);
}

function withQuery(path: string, q: URLSearchParams): string {
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

function rolloutPath(runId: string, rolloutId: string): string {
  return `/runs/${encodeURIComponent(runId)}/rollouts/${encodeURIComponent(rolloutId)}`;
}

/**
 * A table row's link: the inspector for `rolloutId` carrying the table's sort and filters from the
 * run page's parameters (`tableParams`), so the inspector's previous / next follow that order.
 */
export function inspectorHref(runId: string, rolloutId: string, tableParams: ParamSource): string {
  return withQuery(rolloutPath(runId, rolloutId), tableQueryOf(tableParams));
}

/** Another rollout of the inspector's order: the table query plus the profile and tab of `current`. */
export function neighborHref(runId: string, rolloutId: string, current: ParamSource): string {
  return withQuery(
    rolloutPath(runId, rolloutId),
    pick(current, KEPT_ON_NAVIGATION, tableQueryOf(current)),
  );
}

/** The neighbours route for the inspector's rollout under the table query in `current`. */
export function neighborsUrl(runId: string, rolloutId: string, current: ParamSource): string {
  return withQuery(
    `/api/runs/${encodeURIComponent(runId)}/rollouts/${encodeURIComponent(rolloutId)}/neighbors`,
    tableQueryOf(current),
  );
}

/** Where the rollouts table of the run is, under the same sort and filters (the way back). */
export function tableHref(runId: string, current: ParamSource): string {
  return withQuery(`/runs/${encodeURIComponent(runId)}`, tableQueryOf(current));
}
