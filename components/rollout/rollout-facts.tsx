"use client";
// The rollout view as the inspector's parts read it, with what the page left for after its first
// paint: the other builder profile's verdict (a second decision over the rollout) and the run's
// policy model (a vote over the run's summary index). Both are fetched once the page is idle
// (`?facts=1`); the policy again every few seconds while the run's index is still being built.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { type RolloutFacts, type RolloutView, API } from "@/lib/schema";
import { whenIdle } from "./after-paint";
import { rolloutAsk, rolloutUrl } from "./rollout-api";
import { fetchRoute } from "@/components/shared/api";

const RETRY_MS = 5_000;

export interface FactsState {
  view: RolloutView;
  /** The other profile is still being decided. */
  otherPending: boolean;
  /** The run's policy model is not known yet (its summary index has not completed). */
  policyPending: boolean;
  /** Why the facts could not be fetched. */
  error: string | null;
}

const Facts = createContext<FactsState | null>(null);

export function useRolloutFacts(): FactsState {
  const facts = useContext(Facts);
  if (!facts) throw new Error("useRolloutFacts outside RolloutFactsProvider");
  return facts;
}

export interface RolloutFactsProps {
  view: RolloutView;
  /** The `profile` the page was asked for (null: the run's default), so both agree on the build. */
  profile: string | null;
  policyPending: boolean;
  children: ReactNode;
}

export function RolloutFactsProvider({
  view,
  profile,
  policyPending,
  children,
}: RolloutFactsProps) {
  const url = rolloutUrl(API.rolloutFacts, rolloutAsk(view, profile ?? null));
  const wanted = view.other_profile === null || policyPending;
  const [got, setGot] = useState<{ url: string; facts?: RolloutFacts; error?: string } | null>(
    null,
  );
  useEffect(() => {
    if (!wanted) return;
    const ctl = new AbortController();
    let retry: number | undefined;
    const load = () =>
      fetchRoute(API.rolloutFacts, url, ctl.signal).then(
        (facts) => {
          setGot({ url, facts });
          if (facts.policy_pending) retry = window.setTimeout(load, RETRY_MS);
        },
        (err: unknown) =>
          !ctl.signal.aborted &&
          setGot({ url, error: err instanceof Error ? err.message : String(err) }),
      );
    const cancel = whenIdle(() => void load());
    return () => {
      cancel();
      window.clearTimeout(retry);
      ctl.abort();
    };
  }, [url, wanted]);
  const mine = got?.url === url ? got : null;
  const facts = mine?.facts ?? null;
  const value = useMemo<FactsState>(() => {
    const merged = facts
      ? { ...view, other_profile: facts.other_profile, policy_model: facts.policy_model }
      : view;
    const waiting = mine?.error === undefined;
    return {
      view: merged,
      otherPending: merged.other_profile === null && waiting,
      policyPending: (facts ? facts.policy_pending : policyPending) && waiting,
      error: mine?.error ?? null,
    };
  }, [view, facts, mine?.error, policyPending]);
  return <Facts.Provider value={value}>{children}</Facts.Provider>;
}
