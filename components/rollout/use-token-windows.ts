"use client";
// Loads a sequence's token windows on demand: the first window brings the segments and total;
// further windows are fetched when rows that need them scroll into view, once each. Changing the
// sequence aborts what is in flight.
import { useCallback, useEffect, useRef, useState } from "react";
import { tokenWindowSchema, type TokenWindow } from "@/lib/schema/api";
import { fetchParsed } from "@/components/shared/url-state";

export const WINDOW = 2000;

export interface TokenAt {
  pos: number;
  id: number;
  text: string | null;
  piece: string | null;
  mask: number;
  logProb: number | null;
  call: string;
}

export function useTokenWindows(url: string) {
  const [meta, setMeta] = useState<{ url: string; first?: TokenWindow; error?: string }>({ url });
  const windows = useRef(new Map<number, TokenWindow>());
  const inflight = useRef(new Set<number>());
  const ctl = useRef<AbortController | null>(null);
  const [, setVersion] = useState(0);

  useEffect(() => {
    const c = new AbortController();
    ctl.current = c;
    windows.current = new Map();
    inflight.current = new Set();
    fetchParsed(`${url}&offset=0&limit=${WINDOW}`, (v) => tokenWindowSchema.parse(v), c.signal).then(
      (w) => {
        windows.current.set(0, w);
        setMeta({ url, first: w });
      },
      (err: unknown) => !c.signal.aborted && setMeta({ url, error: (err as Error).message }),
    );
    return () => c.abort();
  }, [url]);

  const ensure = useCallback(
    (from: number, to: number) => {
      const c = ctl.current;
      if (!c) return;
      for (let w = Math.floor(from / WINDOW); w <= Math.floor(Math.max(from, to - 1) / WINDOW); w++) {
        if (windows.current.has(w) || inflight.current.has(w)) continue;
        inflight.current.add(w);
        fetchParsed(`${url}&offset=${w * WINDOW}&limit=${WINDOW}`, (v) => tokenWindowSchema.parse(v), c.signal).then(
          (data) => {
            windows.current.set(w, data);
            inflight.current.delete(w);
            setVersion((n) => n + 1);
          },
          () => inflight.current.delete(w),
        );
      }
    },
    [url],
  );

  const tokenAt = useCallback((pos: number): TokenAt | null => {
    const w = windows.current.get(Math.floor(pos / WINDOW));
    if (!w) return null;
    const k = pos - w.offset;
    const id = w.tokens.id[k];
    if (id === undefined) return null;
    return {
      pos,
      id,
      text: w.tokens.text?.[k] ?? null,
      piece: w.tokens.piece?.[k] ?? null,
      mask: w.tokens.mask[k] as number,
      logProb: w.tokens.log_prob[k] ?? null,
      call: w.call_ids[w.tokens.call[k] as number] as string,
    };
  }, []);

  const current = meta.url === url ? meta : { url };
  return { first: current.first, error: current.error, ensure, tokenAt };
}
