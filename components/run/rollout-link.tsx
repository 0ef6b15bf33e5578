"use client";
// A rollout's link in the run table, and the frame that answers its click. The inspector page is
// dynamic and not prefetched (a table shows hundreds of links), so its response is a round trip
// away, and a cached rollout's page is rendered whole before its first byte. A click must not wait
// for either: while the navigation is pending (useLinkStatus,
// https://nextjs.org/docs/app/api-reference/functions/use-link-status) the inspector's own loading
// frame, with the rollout's crumbs and its build's progress, replaces the run page at once. The
// navigation's commit unmounts the run page and the frame with it; a cancelled navigation (a
// crumb's link, Back) hands the run page back as it was. Meanwhile its content is only made
// invisible, never removed from layout: the table's virtualiser keeps its rows, this link among
// them, and so the link's pending state that the frame hangs on.
//
// The link reports its pending state to the frame, which the run page renders as its own child:
// drawn inside the link, the frame's own links would nest in it and its clicks bubble into it.
import Link, { useLinkStatus } from "next/link";
import { useLayoutEffect, useSyncExternalStore, type ReactNode } from "react";
import { LoadingProgress } from "@/components/rollout/loading-progress";

type Opening = { run: string; rollout: string };
let opening: Opening | null = null;
const listeners = new Set<() => void>();
const setOpening = (next: Opening | null) => {
  opening = next;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

function Pending(target: Opening) {
  const { pending } = useLinkStatus();
  const { run, rollout } = target;
  useLayoutEffect(() => {
    if (!pending) return;
    const mine = { run, rollout };
    setOpening(mine);
    window.scrollTo(0, 0); // the frame is drawn at the page's top, where the navigation lands
    return () => {
      if (opening === mine) setOpening(null);
    };
  }, [pending, run, rollout]);
  return null;
}

export function RolloutLink(p: {
  href: string;
  run: string;
  rollout: string;
  children: ReactNode;
}) {
  return (
    <Link href={p.href} className="mono" prefetch={false}>
      {p.children}
      <Pending run={p.run} rollout={p.rollout} />
    </Link>
  );
}

/** Rendered by the run page, as a direct child of the page's main: the clicked rollout's frame. */
export function OpeningFrame() {
  const target = useSyncExternalStore(
    subscribe,
    () => opening,
    () => null,
  );
  if (!target) return null;
  return (
    <div className="opening-frame" data-testid="link-pending">
      <LoadingProgress run={target.run} rollout={target.rollout} />
    </div>
  );
}
