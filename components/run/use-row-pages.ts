"use client";
// Pages of the rollouts table from /api/runs/{run}/rollouts (sorted and filtered on the server);
// `version` refetches when the run changed (live runs).
import { useCallback } from "react";
import { usePages } from "@/components/shared/use-pages";
import type { RolloutSummary } from "@/lib/runs/summarize";
import { rolloutPageSchema } from "@/lib/schema/api";

export const PAGE = 200;

interface Page {
  total: number;
  all: number;
  rollouts: RolloutSummary[];
}

// The envelope and each row's identity are checked; row fields are the server's RolloutSummary.
const asPage = (v: unknown) => rolloutPageSchema.parse(v) as unknown as Page;

export function useRowPages(base: string, query: string, version: number) {
  const { first, error, ensure, pageOf } = usePages(`${base}?${query}${query ? "&" : ""}v=${version}`, PAGE, asPage);
  const rowAt = useCallback((i: number): RolloutSummary | null => pageOf(i)?.rollouts[i % PAGE] ?? null, [pageOf]);
  return { total: first?.total ?? null, all: first?.all ?? null, error, ensure, rowAt };
}
