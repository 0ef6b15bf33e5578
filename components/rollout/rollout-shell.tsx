"use client";
// Where the rollout's loading frame lives: in the segment's layout, not in a Suspense fallback. On a
// direct load React never hydrates a fallback whose content is still streaming, so a frame drawn
// there would sit at "Opening the rollout…" with no progress polled for the whole cold build. The
// layout is part of the shell, hydrated at once: it shows the frame until the page says it has
// arrived. The page's own fallback (PagePending, only while its model is being built) marks the
// page as on its way again (a new profile, say).
import { useParams } from "next/navigation";
import { createContext, useContext, useLayoutEffect, useState, type ReactNode } from "react";
import { LoadingProgress } from "./loading-progress";

const Waiting = createContext<(waiting: boolean) => void>(() => {});

export function RolloutShell({ children }: { children: ReactNode }) {
  // Until the page arrives: on a direct load, and on a navigation into a new rollout.
  const [waiting, setWaiting] = useState(true);
  const { run, rollout } = useParams<{ run: string; rollout: string }>();
  return (
    <Waiting.Provider value={setWaiting}>
      <div className="rollout-shell">
        {waiting && <LoadingProgress run={run} rollout={rollout} />}
        {children}
      </div>
    </Waiting.Provider>
  );
}

/** Rendered by the page: the frame goes (before paint). Its marker hides the frame before hydration. */
export function PageArrived() {
  const setWaiting = useContext(Waiting);
  useLayoutEffect(() => setWaiting(false), [setWaiting]);
  return <span className="page-arrived" hidden />;
}

/** The page's Suspense fallback while its model is built: the frame comes back. */
export function PagePending() {
  const setWaiting = useContext(Waiting);
  useLayoutEffect(() => setWaiting(true), [setWaiting]);
  return null;
}
