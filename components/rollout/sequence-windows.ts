// One token sequence's windows, as the browser loads them: the opening window (segments and total)
// shipped by the page or fetched once with `segments=1`, later windows with tokens only, each
// fetched once and parsed with the route's schema. No React: the hook re-renders on `notify`.
import { type SegmentedWindow, type TokenWindow, API } from "@/lib/schema";
import { TOKEN_WINDOW as WINDOW } from "@/lib/view";
import { withMore, fetchRoute } from "@/components/shared/api";

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One sequence's loaded windows (by index); `notify` re-renders the hook's component. */
export class SequenceWindows {
  private readonly pages = new Map<number, TokenWindow>();
  private readonly inflight = new Set<number>();
  private ctl = new AbortController();
  private notify: () => void = () => undefined;
  private opened: SegmentedWindow | null;
  private failed: string | null = null;

  constructor(
    private readonly url: string,
    shipped: SegmentedWindow | null,
  ) {
    this.opened = shipped;
    if (shipped) this.pages.set(Math.floor(shipped.offset / WINDOW), shipped);
  }

  /** The window with the segments and total, once it is here. */
  get opening(): SegmentedWindow | null {
    return this.opened;
  }

  /** Why the opening window could not be loaded. */
  get error(): string | null {
    return this.failed;
  }

  /** Starts (again, after a stop): fetches the opening window unless the page shipped it. */
  start(notify: () => void): void {
    this.ctl = new AbortController();
    this.inflight.clear();
    this.notify = notify;
    if (this.opened) return;
    const signal = this.ctl.signal;
    this.inflight.add(0);
    fetchRoute(API.tokensOpening, this.pageUrl(0, true), signal).then(
      (w) => this.arrive(0, w, () => (this.opened = w)),
      (err: unknown) => !signal.aborted && this.arrive(0, null, () => (this.failed = message(err))),
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
      fetchRoute(API.tokens, this.pageUrl(p, false), signal).then(
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
    return withMore(this.url, { offset: p * WINDOW, limit: WINDOW, segments: segments ? 1 : null });
  }
}
