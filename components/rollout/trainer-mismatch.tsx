"use client";
// The token view's "colour by train/inference mismatch": asks the rollout's trainer-mismatch route
// whether a trained sample was joined to this chain (the toggle, or one line saying why not; nothing
// at all for a run without step files, `logs/train_data_step*.jsonl`), and
// when the toggle is on loads exp(|gen − prev|) for every position of the chain, page by page.
// The toggle's truth is in the URL (`mismatch=1`); the colours are lib/view/mismatch-palette's.
import { LiveInput } from "@/components/shared/live-controls";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { type RolloutMismatch, API, apiUrl } from "@/lib/schema";
import { type RolloutAsk } from "./rollout-api";
import { fetchRoute, withMore } from "@/components/shared/api";

/** Positions per request: a whole GRPO sample in one. */
const PAGE = 20000;

interface Loaded {
  key: string;
  head: RolloutMismatch | null;
  errors: Array<number | null> | null;
  failed: string | null;
}

/** The route's answer for (rollout, `sequence`, profile), and the errors once `on` loads them. */
export function useTrainerMismatch(ask: RolloutAsk, sequence: string) {
  const on = useSearchParams().get("mismatch") === "1";
  const url = apiUrl(API.trainerMismatch, ask.at, { chain: sequence, profile: ask.common.profile });
  const key = `${url}|${on ? 1 : 0}`;
  const [state, setState] = useState<Loaded>({ key: "", head: null, errors: null, failed: null });
  useEffect(() => {
    const ctl = new AbortController();
    (async () => {
      const head = await fetchRoute(
        API.trainerMismatch,
        withMore(url, { limit: on ? PAGE : 0 }),
        ctl.signal,
      );
      const errors = on ? [...head.errors] : null;
      while (errors && errors.length < head.total) {
        const more = withMore(url, { offset: errors.length, limit: PAGE });
        const page = await fetchRoute(API.trainerMismatch, more, ctl.signal);
        if (page.errors.length === 0) break;
        errors.push(...page.errors);
      }
      if (!ctl.signal.aborted) setState({ key, head, errors, failed: null });
    })().catch((e: unknown) => {
      if (ctl.signal.aborted) return;
      const failed = e instanceof Error ? e.message : String(e);
      setState({ key, head: null, errors: null, failed });
    });
    return () => ctl.abort();
  }, [url, on, key]);
  const current = state.key === key ? state : null;
  const errors = current?.errors ?? null;
  const errorAt = useCallback(
    (pos: number): number | null => (errors ? (errors[pos] ?? null) : null),
    [errors],
  );
  // Stale answers (another chain) are not shown; the head of the earlier key still says availability.
  const head = current?.head ?? (state.key.startsWith(`${url}|`) ? state.head : null);
  return { on, head, failed: current?.failed ?? null, errorAt: on && errors ? errorAt : null };
}

export function MismatchToggle({
  head,
  on,
  failed,
  onPatch,
}: {
  head: RolloutMismatch | null;
  on: boolean;
  failed: string | null;
  onPatch: (patch: Record<string, string | null>) => void;
}) {
  const [shown, setShown] = useUrlFlag(on);
  if (failed)
    return (
      <span className="muted" data-testid="mismatch-unavailable">
        Mismatch colouring: {failed}
      </span>
    );
  // No step files, no truth check: nothing to say about one (not even why it is unavailable).
  if (!head || !head.step_logs) return null;
  if (!head.available || !head.sample)
    return (
      <span className="muted" data-testid="mismatch-unavailable">
        No train/inference mismatch colouring: {head.reason}
      </span>
    );
  const s = head.sample;
  const mean = s.mult_prob_error === null ? "–" : s.mult_prob_error.toFixed(4);
  return (
    <label title={`${s.file} line ${s.line}: the trained sample the truth check joined`}>
      <LiveInput
        type="checkbox"
        checked={shown}
        onChange={(e) => {
          setShown(e.target.checked);
          onPatch({ mismatch: e.target.checked ? "1" : null });
        }}
        data-testid="mismatch-toggle"
      />{" "}
      colour by train/inference mismatch{" "}
      <span className="muted">
        ({s.file} line {s.line}, the records&apos; step {s.step - 1}: mean {mean})
      </span>
    </label>
  );
}
