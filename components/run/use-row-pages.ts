"use client";
// Pages of the rollouts table, fetched from /api/runs/{run}/rollouts as rows scroll into view; the
// first page brings the total. A new query (sort, filters) starts over; `version` refetches (live runs).
import { useCallback, useEffect, useRef, useState } from "react";
import { fetchParsed } from "@/components/shared/url-state";
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
  const [first, setFirst] = useState<{ key: string; page?: Page; error?: string } | null>(null);
  const pages = useRef(new Map<number, RolloutSummary[]>());
  const inflight = useRef(new Set<number>());
  const ctl = useRef<AbortController | null>(null);
  const [, setTick] = useState(0);
  const key = `${query}#${version}`;

  useEffect(() => {
    const c = new AbortController();
    ctl.current = c;
    fetchParsed(`${base}?${query}&offset=0&limit=${PAGE}`, asPage, c.signal).then(
      (page) => {
        pages.current = new Map([[0, page.rollouts]]);
        inflight.current = new Set();
        setFirst({ key, page });
      },
      (err: unknown) => !c.signal.aborted && setFirst({ key, error: (err as Error).message }),
    );
    return () => c.abort();
  }, [base, query, key]);

  const ensure = useCallback(
    (from: number, to: number) => {
      const c = ctl.current;
      if (!c) return;
      for (let p = Math.floor(from / PAGE); p <= Math.floor(Math.max(from, to - 1) / PAGE); p++) {
        if (pages.current.has(p) || inflight.current.has(p)) continue;
        inflight.current.add(p);
        fetchParsed(`${base}?${query}&offset=${p * PAGE}&limit=${PAGE}`, asPage, c.signal).then(
          (page) => {
            pages.current.set(p, page.rollouts);
            inflight.current.delete(p);
            setTick((n) => n + 1);
          },
          () => inflight.current.delete(p),
        );
      }
    },
    [base, query],
  );

  const rowAt = useCallback((i: number): RolloutSummary | null => pages.current.get(Math.floor(i / PAGE))?.[i % PAGE] ?? null, []);
  const current = first?.key === key ? first : null;
  return { total: current?.page?.total ?? null, all: current?.page?.all ?? null, error: current?.error, ensure, rowAt };
}
