"use client";
// The run page's training section (GET …/trainer/training): NeMo-RL's rollout metrics per step from
// whichever logger holds them, drawn with the health charts' step chart; the run facts its loggers
// keep (W&B config and summary, MLflow params), folded; and the loggers found, a logger not read
// named as such. Shows nothing for a run without trainer logs or metrics.
import { useEffect, useState } from "react";
import { API, type LoggedFacts, type TrainingChart, type TrainingSection } from "@/lib/schema";
import { chartBucketQuery } from "@/lib/view";
import { getApi } from "@/components/shared/api";
import { NEUTRAL } from "./charts/colours";
import { StepChart } from "./charts/step-chart";
import { useBucketLink } from "./charts/use-bucket-link";

const FORMAT: Record<TrainingChart["unit"], (v: number) => string> = {
  fraction: (v) => `${(v * 100).toFixed(Math.abs(v) < 0.1 && v !== 0 ? 1 : 0)}%`,
  count: (v) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2)),
  ratio: (v) => v.toFixed(4),
  // A KL of 0.0004 as "4.0e-4": the axis's narrow labels cut a long decimal's leading digits.
  value: (v) => (v === 0 || Math.abs(v) >= 0.01 ? v.toPrecision(3) : v.toExponential(1)),
};

const AXIS: Record<TrainingChart["unit"], string> = {
  fraction: "% of the step's samples",
  count: "mean per sample",
  ratio: "ratio (1 = train and inference agree)",
  value: "value",
};

export function TrainingSectionView({
  runId,
  recordSteps,
}: {
  runId: string;
  /** Steps the rollout records have: a click on one lists its rollouts. */
  recordSteps: ReadonlySet<number>;
}) {
  const [t, setT] = useState<TrainingSection | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.training, { run: runId }, undefined, ctl.signal).then(setT, (e: unknown) => {
      if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => ctl.abort();
  }, [runId]);
  const link = useBucketLink(runId);
  if (error) return <div className="error-box">Training section: {error}</div>;
  if (!t || (t.charts.length === 0 && t.facts.length === 0 && t.loggers.length === 0)) return null;
  const query = (step: number) =>
    recordSteps.has(step) ? chartBucketQuery("step", String(step)) : null;
  return (
    <section data-testid="training-section">
      <h2>Training</h2>
      <Loggers t={t} />
      {t.charts.length > 0 ? (
        <div className="charts" data-testid="training-charts">
          {t.charts.map((c) => (
            <StepChart
              key={c.id}
              id={`training-${c.id}`}
              title={`${c.title}: ${c.tag}`}
              data={c.points.map((p) => ({ step: p.step, value: p.value }))}
              series={[{ key: "value", label: c.tag, color: NEUTRAL }]}
              valueAxis={AXIS[c.unit]}
              stepAxis="training step"
              format={FORMAT[c.unit]}
              query={query}
              link={link}
              gaps
            />
          ))}
        </div>
      ) : (
        <p className="muted" data-testid="training-no-metrics">
          The trainer logs hold none of NeMo-RL&apos;s rollout metrics (truncation rate, turns and
          tokens per sample, token_mult_prob_error, gen_kl_error).
        </p>
      )}
      {t.facts.map((f) => (
        <Facts key={`${f.source}-${f.kind}`} f={f} />
      ))}
    </section>
  );
}

function Loggers({ t }: { t: TrainingSection }) {
  if (t.loggers.length === 0) return null;
  return (
    <ul className="muted small" data-testid="training-loggers">
      {t.loggers.map((l) => (
        <li key={l.path} data-read={l.read}>
          <span className="mono">{l.path}</span> ({l.logger}): {l.read ? "read, " : "not read: "}
          {l.detail}
        </li>
      ))}
    </ul>
  );
}

const KIND_WORDS: Record<LoggedFacts["kind"], string> = {
  config: "Config",
  summary: "Summary",
  params: "Parameters",
  run: "Run",
};

function Facts({ f }: { f: LoggedFacts }) {
  return (
    <details className="card" data-testid={`training-facts-${f.kind}`}>
      <summary>
        {KIND_WORDS[f.kind]} ({(f.entries.length + f.more).toLocaleString("en-US")} keys) from{" "}
        <span className="mono">{f.source}</span>
      </summary>
      <table className="facts-table">
        <tbody>
          {f.entries.map((e) => (
            <tr key={e.key}>
              <th scope="row" className="mono">
                {e.key}
              </th>
              <td className="mono">{e.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {f.more > 0 && (
        <p className="muted small">{f.more.toLocaleString("en-US")} more keys not shown.</p>
      )}
    </details>
  );
}
