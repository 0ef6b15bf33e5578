"use client";
// The token view's routed experts, on demand (URL `experts=1`): the selected token's experts per
// MoE layer and a layer × expert load heatmap of the visible tokens, from the experts route
// (docs/experts.md) one window at a time. Fallback and missing routes are named, never drawn.
import { LiveInput } from "@/components/shared/live-controls";
import { useEffect, useState } from "react";
import { useSearchParams } from "next/navigation";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { fetchRoute } from "@/components/shared/api";
import { API, type ExpertsWindow } from "@/lib/schema";
import { expertLoad, routeWords } from "@/lib/view";
import { rolloutUrl, type RolloutAsk } from "./rollout-api";
import { ExpertHeatmap } from "./expert-heatmap";
import { fmtInt } from "./labels";

/** The window asked: aligned, so scrolling within it asks nothing new. */
const STEP = 1000;
const LIMIT = 2000;

/** The experts route's answer for `url` while `on`, or why it failed. */
function useExperts(url: string | null) {
  const [state, setState] = useState<{ url: string; w?: ExpertsWindow; failed?: string }>();
  useEffect(() => {
    if (url === null) return;
    const ctl = new AbortController();
    fetchRoute(API.experts, url, ctl.signal)
      .then((w) => setState({ url, w }))
      .catch((e: unknown) => {
        if (!ctl.signal.aborted)
          setState({ url, failed: e instanceof Error ? e.message : String(e) });
      });
    return () => ctl.abort();
  }, [url]);
  return state?.url === url ? state : null;
}

/** The toggle, in the token view's toolbar beside the other view options (URL `experts=1`). */
export function ExpertsToggle({
  onPatch,
}: {
  onPatch: (patch: Record<string, string | null>) => void;
}) {
  const [on, setOn] = useUrlFlag(useSearchParams().get("experts") === "1");
  return (
    <label>
      <LiveInput
        type="checkbox"
        checked={on}
        onChange={(e) => {
          setOn(e.target.checked);
          onPatch({ experts: e.target.checked ? "1" : null });
        }}
        data-testid="experts-toggle"
      />{" "}
      routed experts
    </label>
  );
}

/** The selected token's experts and the visible tokens' load, while `experts=1` (else nothing). */
export function ExpertsPanel(props: {
  ask: RolloutAsk;
  sequence: string;
  pos: number | null;
  range: [number, number];
}) {
  const { ask, sequence, pos, range } = props;
  const on = useSearchParams().get("experts") === "1";
  const offset = Math.floor(range[0] / STEP) * STEP;
  const at = (offset: number, limit: number) =>
    rolloutUrl(API.experts, ask, { chain: sequence, offset, limit });
  const win = useExperts(on ? at(offset, LIMIT) : null);
  const one = useExperts(on && pos !== null ? at(pos, 1) : null);
  const w = win?.w;
  if (!on) return null;
  const failed = win?.failed ?? one?.failed;
  const visible = w ? w.experts.slice(range[0] - w.offset, range[1] - w.offset) : [];
  const load = w ? expertLoad(visible, w.layers) : null;
  // Past the sequence's end the answer has no position: said as "no route".
  const route = one?.w ? (one.w.experts[0] ?? null) : undefined;
  return (
    <div data-testid="experts-panel">
      <div className="toolbar">
        <span className="muted" data-testid="experts-selected">
          {pos === null
            ? "select a token for its experts per layer"
            : route === undefined
              ? `pos ${fmtInt(pos)} · loading…`
              : route === null
                ? `pos ${fmtInt(pos)}: no route (fell back to the trainer's router, missing, or not captured)`
                : `pos ${fmtInt(pos)} experts: ${routeWords(route)}`}
        </span>
      </div>
      {failed && <div className="error-box">Routed experts: {failed}</div>}
      {w && !w.routed && (
        <div className="muted" data-testid="experts-none">
          No call of this sequence carries routed experts.
        </div>
      )}
      {w?.routed && load && (
        <>
          <div className="muted small">
            Expert load over the visible tokens {fmtInt(range[0])}–{fmtInt(range[1] - 1)}:{" "}
            {fmtInt(load.routed)} routed, {fmtInt(visible.length - load.routed)} without a route
          </div>
          <ExpertHeatmap load={load} />
        </>
      )}
    </div>
  );
}
