"use client";
// The run page's truth check: whether the trainer trained on what the capture delivered, from
// NeMo-RL's train_data_step{N}.jsonl (GET …/trainer/truth). Per run and per step counts, the step's
// token_mult_prob_error beside the one the trainer logged (equal / differs / one side only), and the
// samples that differ, each linked to its rollout. Shows nothing for a run without NeMo-RL step logs.
import Link from "next/link";
import { useEffect, useState } from "react";
import {
  type LoggedCheck,
  type TrainerTruth,
  type TruthSample,
  type TruthStep,
  API,
} from "@/lib/schema";
import { alertRolloutHref } from "@/lib/view";
import { INVESTIGATE_ABOVE } from "@/lib/trainer/pure";
import { getApi } from "@/components/shared/api";

const n = (v: number) => v.toLocaleString("en-US");
const err = (v: number | null) => (v === null ? "–" : v.toFixed(4));
/** Sample rows drawn; the rest are counted. */
const SHOWN = 50;

const CLASS_WORDS: Record<TruthSample["class"], string> = {
  identical: "identical",
  mask_differs: "same tokens, different mask",
  tokens_differ: "tokens differ",
  no_capture: "no capture found",
};

export function TruthCheck({ runId }: { runId: string }) {
  const [truth, setTruth] = useState<TrainerTruth | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.truth, { run: runId }, undefined, ctl.signal).then(setTruth, (e: unknown) => {
      if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => ctl.abort();
  }, [runId]);
  if (error) return <div className="error-box">Truth check: {error}</div>;
  if (!truth || truth.log_dir === null) return null;
  return <TruthView truth={truth} />;
}

function Summary({ t }: { t: TrainerTruth }) {
  const { samples, identical, no_capture } = t.totals;
  if (no_capture === samples)
    return (
      <p data-testid="truth-summary">
        No captured rollout for any of the {n(samples)} trained samples
        {t.capture === "off" ? " (capture is off)" : ""}: nothing to compare. The
        token_mult_prob_error column is where re-tokenization drift shows.
      </p>
    );
  // Same tokens and masks is not same log probs: green only when those agree too (NeMo-RL's 1.05).
  const mult = t.totals.token_mult_prob_error;
  const disagree = mult !== null && mult > INVESTIGATE_ABOVE;
  return (
    <p
      data-testid="truth-summary"
      className={identical === samples ? (disagree ? "warn-text" : "ok-text") : undefined}
    >
      The trainer trained on exactly the tokens and loss masks the capture delivered for{" "}
      {n(identical)} of {n(samples)} samples
      {disagree
        ? `; its log probs disagree with the inference engine's (token_mult_prob_error ${mult.toFixed(3)}, above ${INVESTIGATE_ABOVE}: see the alert).`
        : "."}
    </p>
  );
}

const LOGGED_WORDS: Record<LoggedCheck, string> = {
  equal: "equal",
  differs: "differs",
  not_logged: "not logged",
  not_computed: "only logged",
};

/** One line: how the recomputed per-step values compare with the trainer's logged scalar. */
function LoggedSummary({ t }: { t: TrainerTruth }) {
  const l = t.logged;
  if (!l)
    return (
      <p className="muted" data-testid="truth-logged">
        The trainer logged no train/token_mult_prob_error to compare with.
      </p>
    );
  const ok = l.differs === 0 && l.not_computed === 0 && l.not_logged === 0;
  const parts = [`${n(l.equal)} of ${n(t.steps.length)} step files equal`];
  if (l.differs) parts.push(`${n(l.differs)} differ`);
  if (l.not_logged) parts.push(`${n(l.not_logged)} not logged`);
  if (l.not_computed) parts.push(`${n(l.not_computed)} logged but not computable from the file`);
  return (
    <p data-testid="truth-logged" className={ok ? "ok-text" : "warn-text"}>
      Recomputed token_mult_prob_error vs the trainer&apos;s <code>{l.tag}</code> (in{" "}
      <code>{l.trainer_logs}</code>, step N = train_data_step&#123;N&#125;, relative tolerance{" "}
      {l.relative_tolerance}): {parts.join(", ")}
      {l.only_logged ? `; ${n(l.only_logged)} logged steps have no step file` : ""}.
    </p>
  );
}

function LoggedCell({ s }: { s: TruthStep }) {
  const words = LOGGED_WORDS[s.logged_check];
  return (
    <td data-testid="truth-step-logged" data-check={s.logged_check}>
      {s.logged_token_mult_prob_error === null
        ? words
        : `${err(s.logged_token_mult_prob_error)} (${words})`}
    </td>
  );
}

/** Up to this many step files, their table shows open; past it, folded under its summary. */
const STEPS_OPEN = 12;

function TruthView({ truth: t }: { truth: TrainerTruth }) {
  return (
    <section data-testid="truth-check">
      <h2>Trainer truth check</h2>
      <Summary t={t} />
      <p className="muted">
        From <code>{t.log_dir}/train_data_step&#123;N&#125;.jsonl</code>. {t.join_rule} Run
        token_mult_prob_error: {err(t.totals.token_mult_prob_error)}.
      </p>
      <LoggedSummary t={t} />
      {t.issues.map((i, k) => (
        <div key={k} className="error-box" data-testid="truth-issue">
          {i.message}
        </div>
      ))}
      {/* Folded when long (157 step files drew a long box above the samples): one click opens it. */}
      <details open={t.steps.length <= STEPS_OPEN} data-testid="truth-steps-details">
        <summary className="small">
          Per step file: {n(t.steps.length)} {t.steps.length === 1 ? "file" : "files"}
        </summary>
        <div {...scrollRegion("the truth check per step file")}>
          <table className="grid" data-testid="truth-steps">
            <thead>
              <tr>
                <th>step file</th>
                <th>samples</th>
                <th>identical</th>
                <th>mask differs</th>
                <th>tokens differ</th>
                <th>no capture</th>
                <th>token_mult_prob_error</th>
                <th>logged</th>
              </tr>
            </thead>
            <tbody>
              {t.steps.map((s) => (
                <tr key={s.step} data-testid="truth-step-row">
                  <td className="mono">{s.file}</td>
                  <td>{n(s.samples)}</td>
                  <td>{n(s.identical)}</td>
                  <td>{n(s.mask_differs)}</td>
                  <td>{n(s.tokens_differ)}</td>
                  <td>{n(s.no_capture)}</td>
                  <td>{err(s.token_mult_prob_error)}</td>
                  <LoggedCell s={s} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <SampleTable runId={t.run_id} rows={t.samples.slice(0, SHOWN)} total={t.samples_total} />
    </section>
  );
}

function SampleTable({
  runId,
  rows,
  total,
}: {
  runId: string;
  rows: TruthSample[];
  total: number;
}) {
  return (
    <>
      <p className="muted" data-testid="truth-samples-count">
        Samples, differences first: {n(rows.length)} of {n(total)}.
      </p>
      <div {...scrollRegion("the truth check's samples")}>
        <table className="grid" data-testid="truth-samples">
          <thead>
            <tr>
              <th title="The step file (train_data_step{N}.jsonl, holding the records' step N − 1), the sample's line in it, and its idx (NeMo-RL's place among the step's records)">
                sample
              </th>
              <th>rollout</th>
              <th>check</th>
              <th>where</th>
              <th>mult prob error (worst token)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={`${s.step}-${s.line}`} data-testid="truth-sample" data-class={s.class}>
                <td
                  className="mono"
                  style={{ whiteSpace: "nowrap" }}
                  data-testid="truth-sample-where"
                >
                  train_data_step{s.step}.jsonl line {s.line}
                  {s.idx !== null && <span className="muted"> · idx {s.idx}</span>}
                </td>
                <td>
                  {s.rollout_id ? (
                    <Link href={alertRolloutHref(runId, s.rollout_id)} className="mono">
                      {s.rollout_id}
                    </Link>
                  ) : (
                    "–"
                  )}
                </td>
                <td>{CLASS_WORDS[s.class]}</td>
                <td>
                  <Where s={s} />
                </td>
                <td>
                  {s.masked_tokens === 0 ? (
                    <span className="muted">
                      no token in the loss: its sample mask or token loss masks keep none
                    </span>
                  ) : (
                    <>
                      {err(s.mult_prob_error)} ({err(s.max_token_error)} at {s.max_token_pos ?? "–"}
                      )
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A long table's box: at most about a dozen rows high, scrolled by wheel or keyboard. */
const scrollRegion = (label: string) => ({
  style: { maxHeight: 440, overflowY: "auto" as const },
  tabIndex: 0,
  role: "region",
  "aria-label": label,
});

function Where({ s }: { s: TruthSample }) {
  if (s.first_diff === null) return "–";
  const at = `token ${n(s.first_diff)}`;
  if (s.class === "mask_differs") return `${at} (${n(s.mask_diffs)} tokens masked differently)`;
  if (!s.context) return at;
  const c = s.context;
  return (
    <span data-testid="truth-context">
      {at}: <code>{c.before}</code> then trainer <code>{c.trainer}</code> vs capture{" "}
      <code>{c.capture}</code>
    </span>
  );
}
