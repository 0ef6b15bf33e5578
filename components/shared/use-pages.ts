"use client";
// Pages of a long list from one of our paged routes (`offset`, `limit`): the first page arrives
// with the totals; further pages are fetched once each when the rows that need them scroll into
// view. A new `url` (another sequence, sort or filter) aborts what is in flight and starts over.
import { useCallback, useEffect, useRef, useState } from "react";
import { fetchParsed } from "./url-state";

export function usePages<P>(url: string, size: number, parse: (v: unknown) => P) {
  const [first, setFirst] = useState<{ url: string; page?: P; error?: string } | null>(null);
  const pages = useRef(new Map<number, P>());
  const inflight = useRef(new Set<number>());
  const ctl = useRef<AbortController | null>(null);
  const [, setTick] = useState(0);
  const pageUrl = useCallback(
    (p: number) => `${url}${url.includes("?") ? "&" : "?"}offset=${p * size}&limit=${size}`,
    [url, size],
  );

  useEffect(() => {
    const c = new AbortController();
    ctl.current = c;
    pages.current = new Map();
    inflight.current = new Set();
    fetchParsed(pageUrl(0), parse, c.signal).then(
      (page) => {
        pages.current.set(0, page);
        setFirst({ url, page });
      },
      (err: unknown) => !c.signal.aborted && setFirst({ url, error: (err as Error).message }),
    );
    return () => c.abort();
  }, [url, pageUrl, parse]);

  /** Makes sure the pages covering items [from, to) are loaded or loading. */
  const ensure = useCallback(
    (from: number, to: number) => {
      const c = ctl.current;
      if (!c) return;
      for (let p = Math.floor(from / size); p <= Math.floor(Math.max(from, to - 1) / size); p++) {
        if (pages.current.has(p) || inflight.current.has(p)) continue;
        inflight.current.add(p);
        fetchParsed(pageUrl(p), parse, c.signal).then(
          (page) => {
            pages.current.set(p, page);
            inflight.current.delete(p);
            setTick((n) => n + 1);
          },
          () => inflight.current.delete(p),
        );
      }
    },
    [size, pageUrl, parse],
  );

  /** The loaded page holding item `i`, if any. */
  const pageOf = useCallback(
    (i: number): P | undefined => pages.current.get(Math.floor(i / size)),
    [size],
  );
  const current = first?.url === url ? first : null;
  return { first: current?.page, error: current?.error, ensure, pageOf };
}
