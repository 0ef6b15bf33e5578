"use client";
// The rollout view as the inspector's parts read it, with what the page left for after its first
// paint: the other builder profile's verdict (a second decision over the rollout), the run's
// policy model (a vote over the run's summary index) and, in a run with NeMo-RL step files, whether
// the trainer's sample of it differs from its main chain (the truth check, read from those files).
// All are fetched once the page is idle; the policy again every few seconds while the run's index
// is still being built.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import {
  type RolloutFacts,
  type RolloutView,
  type TrainerDiffers,
  API,
  apiUrl,
} from "@/lib/schema";
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
  /** The truth check has not answered yet (a run with step files), or why it could not. */
  trainerPending: boolean;
  trainerError: string | null;
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
  /** The run has NeMo-RL step files (`train_data_step{N}.jsonl`): the truth check is asked. */
  trainerLogs: boolean;
  children: ReactNode;
}

export function RolloutFactsProvider({
  view,
  profile,
  policyPending,
  trainerLogs,
  children,
}: RolloutFactsProps) {
  const trainer = useTrainerDiffers(view, trainerLogs);
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
    const fetched = facts && {
      other_profile: facts.other_profile,
      policy_model: facts.policy_model,
    };
    const merged = { ...view, ...fetched, trainer_differs: trainer.differs };
    const waiting = mine?.error === undefined;
    return {
      view: merged,
      otherPending: merged.other_profile === null && waiting,
      policyPending: (facts ? facts.policy_pending : policyPending) && waiting,
      error: mine?.error ?? null,
      trainerPending: trainer.pending,
      trainerError: trainer.error,
    };
  }, [view, facts, mine?.error, policyPending, trainer]);
  return <Facts.Provider value={value}>{children}</Facts.Provider>;
}

interface TrainerState {
  pending: boolean;
  differs: TrainerDiffers | null;
  error: string | null;
}

/** The truth check's answer for the rollout (its main chain, the run's profile), asked when idle. */
function useTrainerDiffers(view: RolloutView, trainerLogs: boolean): TrainerState {
  const at = { run: view.run_id, rollout: view.rollout_id };
  const url = trainerLogs ? apiUrl(API.trainerMismatch, at, { chain: "main", limit: 0 }) : null;
  const [got, setGot] = useState<{ url: string; state: TrainerState } | null>(null);
  useEffect(() => {
    if (url === null) return;
    const ctl = new AbortController();
    const cancel = whenIdle(
      () =>
        void fetchRoute(API.trainerMismatch, url, ctl.signal).then(
          (m) => setGot({ url, state: { pending: false, differs: m.differs, error: null } }),
          (err: unknown) => {
            if (ctl.signal.aborted) return;
            const error = err instanceof Error ? err.message : String(err);
            setGot({ url, state: { pending: false, differs: null, error } });
          },
        ),
    );
    return () => {
      cancel();
      ctl.abort();
    };
  }, [url]);
  if (url === null) return NO_STEP_FILES;
  return got?.url === url ? got.state : ASKING;
}

const NO_STEP_FILES: TrainerState = { pending: false, differs: null, error: null };
const ASKING: TrainerState = { pending: true, differs: null, error: null };
