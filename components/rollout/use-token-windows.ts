"use client";
// A sequence's token windows and the token at a position. The window that opens the sequence (with
// its segments and total) comes from the page when it shipped one for this sequence, else from one
// request (`segments=1`); later windows carry tokens only and load as their rows scroll into view.
// A new `url` (another sequence, profile or stamp) aborts what is in flight and starts over.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { SegmentedWindow } from "@/lib/schema";
import { TOKEN_WINDOW } from "@/lib/view";
import { SequenceWindows } from "./sequence-windows";

export const WINDOW = TOKEN_WINDOW;

export interface TokenAt {
  pos: number;
  id: number;
  text: string | null;
  piece: string | null;
  mask: number;
  logProb: number | null;
  call: string;
}

/** The window the page shipped, with the query it answers (`chain`, `profile`, `v` = stamp). */
export interface TokenWindowSeed {
  profile: string | null;
  stamp: string;
  window: SegmentedWindow;
}

export const TokenSeedContext = createContext<TokenWindowSeed | null>(null);

/** The seed's window when `url` asks for exactly what it answers. */
function seedFor(url: string, seed: TokenWindowSeed | null): SegmentedWindow | null {
  if (!seed) return null;
  const q = new URL(url, "http://localhost").searchParams;
  const same =
    q.get("chain") === seed.window.sequence &&
    q.get("profile") === seed.profile &&
    q.get("v") === seed.stamp;
  return same ? seed.window : null;
}

/**
 * `first` is the window that opened the sequence (its `segments` and `total`), undefined until it
 * arrives; `tokenAt` reads loaded windows only; `ensure` loads the windows of a position range.
 */
export function useTokenWindows(url: string) {
  const shipped = seedFor(url, useContext(TokenSeedContext));
  const windows = useMemo(() => new SequenceWindows(url, shipped), [url, shipped]);
  const [, setArrivals] = useState(0);
  useEffect(() => {
    windows.start(() => setArrivals((n) => n + 1));
    return () => windows.stop();
  }, [windows]);
  const ensure = useCallback((from: number, to: number) => windows.ensure(from, to), [windows]);
  const tokenAt = useCallback(
    (pos: number): TokenAt | null => {
      const w = windows.windowOf(pos);
      const k = pos - (w?.offset ?? 0);
      const id = w?.tokens.id[k];
      if (!w || id === undefined) return null;
      return {
        pos,
        id,
        text: w.tokens.text?.[k] ?? null,
        piece: w.tokens.piece?.[k] ?? null,
        mask: w.tokens.mask[k] ?? 0,
        logProb: w.tokens.log_prob[k] ?? null,
        call: w.call_ids[w.tokens.call[k] ?? -1] ?? "",
      };
    },
    [windows],
  );
  return {
    first: windows.opening ?? undefined,
    error: windows.error ?? undefined,
    ensure,
    tokenAt,
  };
}
