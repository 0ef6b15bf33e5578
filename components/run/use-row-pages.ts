"use client";
// Pages of the rollouts table from /api/runs/{run}/rollouts (sorted and filtered on the server),
// parsed with the route's schema; `version` refetches when the run changed (live runs). A query the
// route would refuse (`?sort=bogus`) is found here, from the route's own schema, and never sent.
import { useCallback, useMemo } from "react";
import { z } from "zod";
import { usePages } from "@/components/shared/use-pages";
import { rolloutQuerySchema } from "@/lib/runs/rollout-query";
import { rolloutPageSchema, type RolloutPage, type RolloutSummary } from "@/lib/schema/api-runs";

export const PAGE = 200;

const asPage = (v: unknown): RolloutPage => rolloutPageSchema.parse(v);

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

export function useRowPages(base: string, query: string, version: number) {
  const bad = useMemo(() => badQueryParams(query), [query]);
  // A refused query is never sent (the table shows what is wrong with it instead); the rest of it
  // is, so the counts stay those of the parameters that are fine.
  const sent = useMemo(() => {
    if (bad.length === 0) return query;
    const q = new URLSearchParams(query);
    for (const b of bad) q.delete(b.key);
    return q.toString();
  }, [query, bad]);
  const { first, error, ensure, pageOf } = usePages(
    `${base}?${sent}${sent ? "&" : ""}v=${version}`,
    PAGE,
    asPage,
  );
  const rowAt = useCallback(
    (i: number): RolloutSummary | null => pageOf(i)?.rollouts[i % PAGE] ?? null,
    [pageOf],
  );
  return { total: first?.total ?? null, all: first?.all ?? null, error, bad, ensure, rowAt };
}
