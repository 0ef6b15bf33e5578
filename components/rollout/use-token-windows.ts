"use client";
// A sequence's token windows and the token at a position. The window that opens the sequence (with
// its segments and total) comes from the page when it shipped one for this sequence, else from one
// request (`segments=1`); later windows carry tokens only and load as their rows scroll into view.
// A new `url` (another sequence, profile or stamp) aborts what is in flight and starts over.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { segmentedWindowSchema, tokenWindowSchema, type SegmentedWindow, type TokenWindow } from "@/lib/schema/api-rollout";
import { TOKEN_WINDOW } from "@/lib/view/inspector-url";
import { fetchParsed } from "@/components/shared/url-state";

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

const asOpening = (v: unknown) => segmentedWindowSchema.parse(v);
const asWindow = (v: unknown) => tokenWindowSchema.parse(v);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The seed's window when `url` asks for exactly what it answers. */
function seedFor(url: string, seed: TokenWindowSeed | null): SegmentedWindow | null {
  if (!seed) return null;
  const q = new URL(url, "http://localhost").searchParams;
  const same = q.get("chain") === seed.window.sequence && q.get("profile") === seed.profile && q.get("v") === seed.stamp;
  return same ? seed.window : null;
}

/** One sequence's loaded windows (by index); `notify` re-renders the hook's component. */
class SequenceWindows {
  private readonly pages = new Map<number, TokenWindow>();
  private readonly inflight = new Set<number>();
  private ctl = new AbortController();
  private notify: () => void = () => undefined;
  opening: SegmentedWindow | null;
  error: string | null = null;

  constructor(
    private readonly url: string,
    shipped: SegmentedWindow | null,
  ) {
    this.opening = shipped;
    if (shipped) this.pages.set(Math.floor(shipped.offset / WINDOW), shipped);
  }

  /** Starts (again, after a stop): fetches the opening window unless the page shipped it. */
  start(notify: () => void): void {
    this.ctl = new AbortController();
    this.inflight.clear();
    this.notify = notify;
    if (this.opening) return;
    const signal = this.ctl.signal;
    this.inflight.add(0);
    fetchParsed(this.pageUrl(0, true), asOpening, signal).then(
      (w) => this.arrive(0, w, () => (this.opening = w)),
      (err: unknown) => !signal.aborted && this.arrive(0, null, () => (this.error = message(err))),
    );
  }

  stop(): void {
    this.ctl.abort();
  }

  /** Makes sure the windows covering positions [from, to) are loaded or loading. */
  ensure(from: number, to: number): void {
    const signal = this.ctl.signal;
    for (let p = Math.floor(from / WINDOW); p <= Math.floor(Math.max(from, to - 1) / WINDOW); p++) {
      if (this.pages.has(p) || this.inflight.has(p)) continue;
      this.inflight.add(p);
      fetchParsed(this.pageUrl(p, false), asWindow, signal).then(
        (w) => this.arrive(p, w),
        () => this.inflight.delete(p),
      );
    }
  }

  /** The loaded window holding position `pos`, if any. */
  windowOf(pos: number): TokenWindow | undefined {
    return this.pages.get(Math.floor(pos / WINDOW));
  }

  private arrive(p: number, w: TokenWindow | null, also?: () => void): void {
    this.inflight.delete(p);
    if (w) this.pages.set(p, w);
    also?.();
    this.notify();
  }

  private pageUrl(p: number, segments: boolean): string {
    const sep = this.url.includes("?") ? "&" : "?";
    return `${this.url}${sep}offset=${p * WINDOW}&limit=${WINDOW}${segments ? "&segments=1" : ""}`;
  }
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
  return { first: windows.opening ?? undefined, error: windows.error ?? undefined, ensure, tokenAt };
}
