"use client";
// The run page's mismatch hotspots (GET …/trainer/hotspots): the tokens, position buckets and turns
// where the trainer's log probs disagree most with inference's, over every trained sample of the
// step files, each row's worst occurrence linked to the inspector at that token with mismatch
// colouring on. Ranked by mean or tail (URL `hotspots=tail`). Nothing for a run without step files.
import Link from "next/link";
import { useEffect, useState } from "react";
import { API, type HotspotRow, type TrainerHotspots } from "@/lib/schema";
import { mismatchTokenHref } from "@/lib/view";
import { getApi } from "@/components/shared/api";
import { useUrlState } from "@/components/shared/url-state";

const n = (v: number) => v.toLocaleString("en-US");
const pct = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.01 ? 2 : 1)}%`;
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
        <div className="hotspot-tables">
          <Table runId={runId} h={h} kind="tokens" />
          <Table runId={runId} h={h} kind="positions" />
          <Table runId={runId} h={h} kind="turns" />
        </div>
      )}
      <p className="muted small">
        MoE layers: not shown; they need the routed experts of each token in the capture.
      </p>
    </section>
  );
}

type Kind = "tokens" | "positions" | "turns";

const TITLES: Record<Kind, string> = { tokens: "Token", positions: "Position", turns: "Turn" };

function label(kind: Kind, r: HotspotRow) {
  if (kind === "turns") return `turn ${r.key + 1}`;
  if (kind === "positions") return r.from === r.to ? `${r.from}` : `${r.from}–${r.to}`;
  // React escapes the text; a token of whitespace shows as its JSON string.
  return (
    <>
      <span className="mono">{r.text === null ? "–" : JSON.stringify(r.text)}</span>{" "}
      <span className="muted small">#{r.key}</span>
    </>
  );
}

function Table({ runId, h, kind }: { runId: string; h: TrainerHotspots; kind: Kind }) {
  const rows = h[kind];
  return (
    <table className="grid" data-testid={`hotspots-${kind}`}>
      <caption>
        {TITLES[kind]}s ({n(rows.length)} of {n(h.distinct[kind])} distinct
        {h.min_count[kind] > 1 ? `, seen ${h.min_count[kind]}+ times` : ""})
      </caption>
      <thead>
        <tr>
          <th>{TITLES[kind].toLowerCase()}</th>
          <th>count</th>
          <th>mean</th>
          <th>tail</th>
          <th>worst</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid="hotspots-row" data-key={r.key}>
            <td>{label(kind, r)}</td>
            <td>{n(r.count)}</td>
            <td>{r.mean.toFixed(4)}</td>
            <td>{pct(r.tail_share)}</td>
            <td>
              {r.worst.rollout_id === null ? (
                <span className="muted" title={`${r.worst.file} line ${r.worst.line}`}>
                  {r.max.toFixed(3)} (no rollout)
                </span>
              ) : (
                <Link
                  href={mismatchTokenHref(runId, r.worst.rollout_id, r.worst.pos)}
                  title={`${r.worst.file} line ${r.worst.line}, position ${r.worst.pos}`}
                  data-testid="hotspots-link"
                >
                  {r.max.toFixed(3)}
                </Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
