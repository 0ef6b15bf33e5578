"use client";
// Pages of the rollouts table from /api/runs/{run}/rollouts (sorted and filtered on the server),
// parsed with the route's schema. A new `version` (the index moved on: a cold index summarising, a
// live run growing) refetches the first page and the pages in view together and swaps them in at
// once, so the table keeps its rows while it refreshes; a new query starts over. A query the route
// would refuse (`?sort=bogus`) is found here, from the route's own schema, and never sent.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { rolloutQuerySchema } from "@/lib/index/pure";
import { type RolloutPage, type RolloutSummary, type TextHit, API, withQuery } from "@/lib/schema";
import { fetchRoute, withMore } from "@/components/shared/api";

export const PAGE = 200;

/** A parameter of the table's query the rollouts route would refuse, and what it takes instead. */
export interface BadQueryParam {
  key: string;
  given: string;
  /** The values the parameter takes, when it takes one of a list; else null (see `rule`). */
  allowed: string[] | null;
  /** What the parameter must be, in words. */
  rule: string;
}

/** A query parameter's choices: the options of an enum, under its default or optional wrapper. */
function choicesOf(key: string): string[] | null {
  const shape: Record<string, unknown> = rolloutQuerySchema.shape;
  let field = shape[key];
  while (field instanceof z.ZodDefault || field instanceof z.ZodOptional) field = field.unwrap();
  return field instanceof z.ZodEnum ? field.options.map(String) : null;
}

/** The parameters of `query` the rollouts route would refuse, one entry per parameter. */
export function badQueryParams(query: string): BadQueryParam[] {
  const params = new URLSearchParams(query);
  const raw = Object.fromEntries([...params].filter(([, v]) => v !== ""));
  const parsed = rolloutQuerySchema.safeParse(raw);
  if (parsed.success) return [];
  const out = new Map<string, BadQueryParam>();
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? "query");
    if (out.has(key)) continue;
    const allowed = choicesOf(key);
    const rule = allowed ? `${key} takes one of ${allowed.join(", ")}` : issue.message;
    out.set(key, { key, given: params.get(key) ?? "", allowed, rule });
  }
  return [...out.values()];
}

/** Pages fetched for one query at one index version; `first` carries the counts and progress. */
export interface LoadedPages {
  /** The route and query as sent (refused parameters left out). */
  sent: string;
  version: number;
  first: RolloutPage;
  pages: Map<number, RolloutPage>;
}

/** The pages covering rows [from, to), always with the first (it carries the counts). */
export function pagesIn(from: number, to: number): number[] {
  const out = [0];
  for (let p = Math.floor(from / PAGE); p <= Math.floor(Math.max(from, to - 1) / PAGE); p++)
    if (p > 0) out.push(p);
  return out;
}

/**
 * What the table shows once `next` arrived: it, unless it answers an older version of the query
 * shown (requests of successive versions are not cancelled, so an old one may land last).
 */
export function newerPages(shown: LoadedPages | null, next: LoadedPages): LoadedPages {
  return shown !== null && shown.sent === next.sent && shown.version > next.version ? shown : next;
}

export function useRowPages(runId: string, query: string, version: number) {
  const bad = useMemo(() => badQueryParams(query), [query]);
  const base = API.rollouts.path({ run: runId });
  // A refused query is never sent (the table shows what is wrong with it instead); the rest of it
  // is, so the counts stay those of the parameters that are fine.
  const sent = useMemo(() => {
    const q = new URLSearchParams(query);
    for (const b of bad) q.delete(b.key);
    return withQuery(base, q);
  }, [base, query, bad]);
  const [shown, setShown] = useState<LoadedPages | null>(null);
  const [failed, setFailed] = useState<{ sent: string; error: string } | null>(null);
  const [, setTick] = useState(0);
  /** The rows the table last asked for: a refresh fetches their pages with the first. */
  const view = useRef<[number, number]>([0, 0]);
  const inflight = useRef(new Set<string>());
  const ctl = useRef<AbortController | null>(null);
  const urlOf = useCallback(
    (v: number, p: number) => withMore(sent, { v, offset: p * PAGE, limit: PAGE }),
    [sent],
  );

  // One controller per query: a new query drops what the old one had in flight; a new version
  // does not, or a version bumped faster than a page answers would never be shown.
  useEffect(() => {
    const c = new AbortController();
    ctl.current = c;
    return () => c.abort();
  }, [urlOf]);

  useEffect(() => {
    const c = ctl.current;
    if (!c) return;
    const wanted = pagesIn(...view.current);
    Promise.all(wanted.map((p) => fetchRoute(API.rollouts, urlOf(version, p), c.signal))).then(
      (got) => {
        const pages = new Map(got.map((page, i) => [wanted[i] as number, page]));
        setShown((prev) =>
          newerPages(prev, { sent, version, first: got[0] as RolloutPage, pages }),
        );
        setFailed(null);
      },
      (err: unknown) => !c.signal.aborted && setFailed({ sent, error: (err as Error).message }),
    );
  }, [urlOf, sent, version]);

  const current = shown?.sent === sent ? shown : null;
  /** Makes sure the pages covering rows [from, to) of what is shown are loaded or loading. */
  const ensure = useCallback(
    (from: number, to: number) => {
      view.current = [from, to];
      const c = ctl.current;
      if (!c || !current) return;
      for (const p of pagesIn(from, to)) {
        const key = `${current.sent}\n${current.version}:${p}`;
        if (current.pages.has(p) || inflight.current.has(key)) continue;
        inflight.current.add(key);
        fetchRoute(API.rollouts, urlOf(current.version, p), c.signal).then(
          (page) => {
            current.pages.set(p, page);
            inflight.current.delete(key);
            setTick((n) => n + 1);
          },
          () => inflight.current.delete(key),
        );
      }
    },
    [current, urlOf],
  );
  const rowAt = useCallback(
    (i: number): RolloutSummary | null =>
      current?.pages.get(Math.floor(i / PAGE))?.rollouts[i % PAGE] ?? null,
    [current],
  );
  /** Row i's best match of the query's `text` (null without one, or while its page loads). */
  const hitAt = useCallback(
    (i: number): TextHit | null => {
      const page = current?.pages.get(Math.floor(i / PAGE));
      const id = page?.rollouts[i % PAGE]?.rollout_id;
      return (id !== undefined && page?.text_hits?.[id]) || null;
    },
    [current],
  );
  // A failed refresh keeps the rows shown; only a query with nothing to show says it failed.
  const error = !current && failed?.sent === sent ? failed.error : undefined;
  return { page: current?.first ?? null, error, bad, ensure, rowAt, hitAt };
}

export type RowPages = ReturnType<typeof useRowPages>;
