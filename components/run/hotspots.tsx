"use client";
// The run page's mismatch hotspots (GET …/trainer/hotspots, docs/hotspots.md): the tokens, position
// buckets, turns (calls of the main chain) and MoE layer × expert where the trainer's log probs
// disagree most with inference's, over every trained sample of the step files, each row's worst
// occurrence linked to the inspector at that token with mismatch colouring on. Ranked by mean or
// tail (URL `hotspots=tail`). Nothing for a run without step files.
import { useEffect, useState } from "react";
import { API, type HotspotRow, type TrainerHotspots } from "@/lib/schema";
import { getApi } from "@/components/shared/api";
import { useUrlState } from "@/components/shared/url-state";
import { MoeLayers } from "./hotspots-moe";
import { HotspotTable, n } from "./hotspots-table";

const SHOWN = 10;

/** `version`: the run's index moved (a run still being written): the step files are asked again. */
export function Hotspots({ runId, version }: { runId: string; version: number }) {
  const [params, patch] = useUrlState();
  const by = params.get("hotspots") === "tail" ? "tail" : "mean";
  const [h, setH] = useState<TrainerHotspots | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.hotspots, { run: runId }, { by, limit: SHOWN }, ctl.signal).then(
      setH,
      (e: unknown) => {
        if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => ctl.abort();
  }, [runId, by, version]);
  if (error) return <div className="error-box">Mismatch hotspots: {error}</div>;
  // No step files: the run says nothing about mismatch (the truth check is absent too).
  if (!h || h.log_dir === null) return null;
  return (
    <section data-testid="hotspots">
      <h2>Mismatch hotspots</h2>
      <p className="muted">
        Where the trainer&apos;s log probs disagree with inference&apos;s, over {n(h.samples)}{" "}
        trained samples ({n(h.masked_tokens)} trained tokens) of {n(h.step_files)} step files in{" "}
        <code>{h.log_dir}</code>. A token&apos;s error is exp(|generation − trainer log prob|), as
        NeMo-RL&apos;s token_mult_prob_error; the tail is the share above {h.tail_error}.
        {h.non_finite > 0
          ? ` ${n(h.non_finite)} tokens with a non-finite error are in no row.`
          : ""}
      </p>
      <p>
        Rank by{" "}
        {(["mean", "tail"] as const).map((b) => (
          <button
            key={b}
            type="button"
            aria-pressed={by === b}
            data-testid={`hotspots-by-${b}`}
            onClick={() => patch({ hotspots: b === "mean" ? null : b })}
          >
            {b === "mean" ? "mean error" : "tail share"}
          </button>
        ))}
      </p>
      {h.issues.map((i, k) => (
        <div key={k} className="error-box" data-testid="hotspots-issue">
          {i}
        </div>
      ))}
      {h.masked_tokens === 0 ? (
        <p data-testid="hotspots-unknown">
          Unknown: no sample in the step files has a trained token with both log probs.
        </p>
      ) : (
        <>
          <div className="hotspot-tables">
            <HotspotTable
              {...common(runId, h, "tokens")}
              title="Tokens"
              head="token"
              label={tokenLabel}
            />
            <HotspotTable
              {...common(runId, h, "positions")}
              title="Positions"
              head="position"
              label={(r) => (r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`)}
            />
            <HotspotTable
              {...common(runId, h, "turns")}
              title="Turns by call of the main chain"
              head="call"
              label={(r) => `call ${r.key + 1}`}
            />
          </div>
          {h.turn_unknown > 0 && (
            <p className="muted small" data-testid="hotspots-turn-unknown">
              Turn unknown for {n(h.turn_unknown)} trained tokens: no capture joined their sample,
              they sit past where the sample and the capture differ, or the capture generated no
              token there.
            </p>
          )}
          <MoeLayers runId={runId} h={h} />
        </>
      )}
    </section>
  );
}

type Kind = "tokens" | "positions" | "turns";

const common = (runId: string, h: TrainerHotspots, kind: Kind) => ({
  runId,
  testId: `hotspots-${kind}`,
  rows: h[kind],
  distinct: h.distinct[kind],
  minCount: h.min_count[kind],
});

// React escapes the text; a token of whitespace shows as its JSON string.
function tokenLabel(r: HotspotRow) {
  return (
    <>
      <span className="mono">{r.text === null ? "–" : JSON.stringify(r.text)}</span>{" "}
      <span className="muted small">#{r.key}</span>
    </>
  );
}
