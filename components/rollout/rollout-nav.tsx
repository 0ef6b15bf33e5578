"use client";
// Previous / next rollout in the run table's order: the table's sort and filters ride in the
// inspector's URL (lib/view/rollout-nav), the neighbours route says which rollouts sit either side,
// and the links keep the profile and tab. "[" and "]" press them, except while typing. The order
// is asked for once the page is idle: the first paint waits for no request but the page.
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { type RolloutNeighbors, API } from "@/lib/schema";
import { neighborHref, neighborsUrl } from "@/lib/view";
import { whenIdle } from "./after-paint";
import { fetchRoute } from "@/components/shared/api";

export function RolloutNav({ runId, rolloutId }: { runId: string; rolloutId: string }) {
  const params = useSearchParams();
  const router = useRouter();
  const url = neighborsUrl(runId, rolloutId, params);
  const [state, setState] = useState<{
    url: string;
    value?: RolloutNeighbors;
    error?: string;
  } | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    const cancel = whenIdle(() =>
      fetchRoute(API.neighbors, url, ctl.signal).then(
        (value) => setState({ url, value }),
        (err: unknown) =>
          !ctl.signal.aborted &&
          setState({ url, error: err instanceof Error ? err.message : String(err) }),
      ),
    );
    return () => {
      cancel();
      ctl.abort();
    };
  }, [url]);
  const current = state?.url === url ? state : null;
  const n = current?.value ?? null;
  const prevHref = n?.prev ? neighborHref(runId, n.prev, params) : null;
  const nextHref = n?.next ? neighborHref(runId, n.next, params) : null;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        (e.key !== "[" && e.key !== "]") ||
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        e.defaultPrevented ||
        isTyping(e.target)
      )
        return;
      const href = e.key === "[" ? prevHref : nextHref;
      if (!href) return;
      e.preventDefault();
      router.push(href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [prevHref, nextHref, router]);

  return (
    <nav
      className="rollout-nav small"
      aria-label="Rollouts in the table's order"
      data-testid="rollout-nav"
    >
      {prevHref ? (
        <Link href={prevHref} data-testid="nav-prev" title="Previous rollout in the table ([)">
          ← prev
        </Link>
      ) : (
        <span className="muted">← prev</span>
      )}
      {" · "}
      <span
        data-testid="nav-position"
        title={
          current?.error ??
          (n && n.index === null ? "This rollout does not pass the table's filters" : undefined)
        }
      >
        {positionWords(n, current?.error)}
      </span>
      {" · "}
      {nextHref ? (
        <Link href={nextHref} data-testid="nav-next" title="Next rollout in the table (])">
          next →
        </Link>
      ) : (
        <span className="muted">next →</span>
      )}
    </nav>
  );
}

function positionWords(n: RolloutNeighbors | null, error: string | undefined): string {
  if (error) return "order unavailable";
  if (!n) return "…";
  const total = n.total.toLocaleString("en-US");
  return n.index === null
    ? `— of ${total}`
    : `${(n.index + 1).toLocaleString("en-US")} of ${total}`;
}

/** Keys typed into a field are text, not shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}
