"use client";
// The run page's health, polled: every half second while the index counts or summarises (so its
// progress moves each second), every 10 s after (a run still being written shows new rollouts
// without a reload). `version` moves whenever the index did, which refreshes the rollouts table.
import { useEffect, useState } from "react";
import { indexState, pollDelayMs } from "@/lib/health/pure";
import { type RunHealth, API } from "@/lib/schema";
import { getApi } from "@/components/shared/api";

/** What the table depends on: a change in any of these refetches its rows. */
const indexKey = (h: RunHealth): string =>
  [
    h.rollouts,
    h.progress.done,
    h.progress.total,
    h.progress.running,
    h.masked,
    h.policy_model,
  ].join("\n");

export function useRunHealth(initial: RunHealth, hasSources: boolean) {
  const [health, setHealth] = useState(initial);
  const [version, setVersion] = useState(0);
  // A failed poll is tried again after the same delay rather than ending the polling.
  const [failures, setFailures] = useState(0);
  const delay = pollDelayMs(indexState(health.progress, health.rollouts, hasSources));
  const runId = initial.run_id;
  useEffect(() => {
    const ctl = new AbortController();
    const t = setTimeout(
      () =>
        getApi(API.health, { run: runId }, undefined, ctl.signal).then(
          (h) => {
            setHealth(h);
            if (indexKey(h) !== indexKey(health)) setVersion((v) => v + 1);
          },
          () => !ctl.signal.aborted && setFailures((n) => n + 1),
        ),
      delay,
    );
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [health, delay, runId, failures]);
  return { health, version };
}
