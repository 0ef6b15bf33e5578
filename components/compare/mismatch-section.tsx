"use client";
// The compare page's train/inference mismatch: both runs' per-sample distributions from their
// NeMo-RL step files (GET …/trainer/mismatch-distribution), side by side on the same bins, with
// quantiles. With capture off, re-tokenization drift shows here as a tail far above 1.
import { useEffect, useState } from "react";
import { type MismatchDistribution, API } from "@/lib/schema";
import { getApi } from "@/components/shared/api";
import { INVESTIGATE_ABOVE, SEQUENCE_GATE } from "@/lib/trainer/pure";

const A = "var(--run-a)",
  B = "var(--run-b)";
const fmt = (v: number | null) => (v === null ? "–" : v.toFixed(4));
const QUANTILES = ["p10", "p50", "p90", "p99", "max"] as const;

type Loaded = {
  key: string;
  runs: [MismatchDistribution, MismatchDistribution] | null;
  error: string | null;
};

function useDistributions(a: string, b: string): Loaded | null {
  const key = `${a}|${b}`;
  const [state, setState] = useState<Loaded | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    const one = (id: string) =>
      getApi(API.mismatchDistribution, { run: id }, undefined, ctl.signal);
    Promise.all([one(a), one(b)]).then(
      (runs) => setState({ key, runs, error: null }),
      (e: unknown) => {
        if (!ctl.signal.aborted)
          setState({ key, runs: null, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => ctl.abort();
  }, [a, b, key]);
  return state?.key === key ? state : null;
}

export function MismatchSection({ a, b }: { a: string; b: string }) {
  const state = useDistributions(a, b);
  if (!state) return null;
  if (state.error) return <div className="error-box">Train/inference mismatch: {state.error}</div>;
  const runs = state.runs;
  if (!runs || runs.every((d) => d.samples === 0)) return null;
  return (
    <section id="compare-mismatch" data-testid="compare-mismatch">
      <h2>Train/inference mismatch</h2>
      <p className="muted">
        Per trained sample, the mean of exp(|generation − prev|) over its masked tokens
        (NeMo-RL&apos;s sequence multiplicative probability error; 1 means the trainer and the
        inference engine agree), from each run&apos;s{" "}
        <code>train_data_step&#123;N&#125;.jsonl</code>. With capture off, re-tokenization drift
        shows as a tail far above 1.
      </p>
      <Lead runs={runs} />
      <Quantiles runs={runs} />
      <Histogram runs={runs} />
    </section>
  );
}

/** Samples at SEQUENCE_GATE or above: the histogram's bins from that edge on. */
const pastGate = (d: MismatchDistribution) =>
  d.bins.filter((b) => b.from >= SEQUENCE_GATE).reduce((a, b) => a + b.count, 0);

/**
 * The section's finding in words, beside the reward headline above (which speaks of its scalar
 * only): each run's token_mult_prob_error against the 1.05 NeMo-RL asks to investigate, and its
 * samples at the gate NeMo-Gym's recipes set. Facts and thresholds, not a test between the runs.
 */
function Lead({ runs }: { runs: [MismatchDistribution, MismatchDistribution] }) {
  const one = (d: MismatchDistribution) => {
    const v = d.token_mult_prob_error;
    if (v === null) return `${d.run_id}: no trained token`;
    const over = v > INVESTIGATE_ABOVE ? "above" : "within";
    const gate = pastGate(d);
    const tail = gate > 0 ? `, ${gate} of ${d.samples} samples at ${SEQUENCE_GATE} or more` : "";
    return `${d.run_id} ${v.toFixed(4)} (${over} ${INVESTIGATE_ABOVE}${tail})`;
  };
  const bad = runs.some((d) => (d.token_mult_prob_error ?? 0) > INVESTIGATE_ABOVE);
  return (
    <p className={`verdict-text ${bad ? "warn-text" : ""}`} data-testid="compare-mismatch-lead">
      <code>token_mult_prob_error</code> over every trained sample: {runs.map(one).join(" vs ")}.
      NeMo-RL&apos;s model guide asks to investigate above {INVESTIGATE_ABOVE}.
    </p>
  );
}

function RunHead({ d, color }: { d: MismatchDistribution; color: string }) {
  return (
    <th scope="col">
      <span aria-hidden style={{ color }}>
        ■
      </span>{" "}
      {d.run_id}
    </th>
  );
}

function Quantiles({ runs }: { runs: [MismatchDistribution, MismatchDistribution] }) {
  const [da, db] = runs;
  return (
    <table className="grid" data-testid="compare-mismatch-quantiles">
      <thead>
        <tr>
          <th scope="col">per-sample mismatch</th>
          <RunHead d={da} color={A} />
          <RunHead d={db} color={B} />
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>samples (step files)</td>
          {runs.map((d) => (
            <td key={d.run_id} data-testid="compare-mismatch-samples">
              {d.samples} ({d.step_files})
            </td>
          ))}
        </tr>
        <tr>
          <td>run token_mult_prob_error</td>
          {runs.map((d) => (
            <td key={d.run_id}>{fmt(d.token_mult_prob_error)}</td>
          ))}
        </tr>
        {QUANTILES.map((k) => (
          <tr key={k}>
            <td>{k}</td>
            {runs.map((d) => (
              <td key={d.run_id} data-testid={`compare-mismatch-${k}`}>
                {fmt(d.quantiles[k])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Bar({ count, total, color }: { count: number; total: number; color: string }) {
  const pct = total > 0 ? (100 * count) / total : 0;
  return (
    <td>
      <span style={{ display: "inline-block", minWidth: "3ch" }}>{count}</span>{" "}
      <span
        aria-hidden
        style={{
          display: "inline-block",
          verticalAlign: "middle",
          height: 10,
          width: `${Math.max(pct, count > 0 ? 1 : 0)}%`,
          maxWidth: 160,
          background: color,
        }}
      />
    </td>
  );
}

function Histogram({ runs }: { runs: [MismatchDistribution, MismatchDistribution] }) {
  const [da, db] = runs;
  const bins = da.bins.map((bin, k) => ({ bin, a: bin.count, b: db.bins[k]?.count ?? 0 }));
  return (
    <table className="grid" data-testid="compare-mismatch-histogram">
      <thead>
        <tr>
          <th scope="col">samples with mismatch in</th>
          <RunHead d={da} color={A} />
          <RunHead d={db} color={B} />
        </tr>
      </thead>
      <tbody>
        {bins.map(({ bin, a, b }) => (
          <tr key={bin.from} data-testid="compare-mismatch-bin">
            <td className="mono">
              {bin.to === null ? `≥ ${bin.from}` : `${bin.from} – ${bin.to}`}
            </td>
            <Bar count={a} total={da.samples} color={A} />
            <Bar count={b} total={db.samples} color={B} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
