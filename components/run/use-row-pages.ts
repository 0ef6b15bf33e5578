"use client";
// Pages of the rollouts table from /api/runs/{run}/rollouts (sorted and filtered on the server),
// parsed with the route's schema; `version` refetches when the run changed (live runs).
import { useCallback } from "react";
import { usePages } from "@/components/shared/use-pages";
import { rolloutPageSchema, type RolloutPage, type RolloutSummary } from "@/lib/schema/api-runs";

export const PAGE = 200;

const asPage = (v: unknown): RolloutPage => rolloutPageSchema.parse(v);

export function useRowPages(base: string, query: string, version: number) {
  const { first, error, ensure, pageOf } = usePages(
    `${base}?${query}${query ? "&" : ""}v=${version}`,
    PAGE,
    asPage,
  );
  const rowAt = useCallback(
    (i: number): RolloutSummary | null => pageOf(i)?.rollouts[i % PAGE] ?? null,
    [pageOf],
  );
  return { total: first?.total ?? null, all: first?.all ?? null, error, ensure, rowAt };
}
