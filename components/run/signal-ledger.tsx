"use client";
// The run page's signal ledger (GET …/ledger, docs/ledger.md): the run's totals in words, each
// stage's tokens with a link to the rollouts behind it, the stacked chart per step, and each
// step's share of calls whose prompt re-rendered an earlier turn, with the first one's token.
// Shows nothing for a run without captured tokens. Asked again whenever the run's index moved
// (`version`: a run still being written), keeping the last answer shown meanwhile.
import Link from "next/link";
import { plural } from "@/lib/text";
import { useEffect, useState } from "react";
import { API, type RunLedger } from "@/lib/schema";
import {
  ledgerRows,
  ledgerTotals,
  rerenderRows,
  segmentQuery,
  STEPLESS_WORDS,
  tokenAtHref,
  unknownStages,
} from "@/lib/view";
import { getApi } from "@/components/shared/api";
import { LedgerChart, SEGMENT_COLOURS } from "./charts/ledger-chart";
import { StepChart } from "./charts/step-chart";
import { useBucketLink, type BucketLink } from "./charts/use-bucket-link";
import { WARNING } from "./charts/colours";

export function SignalLedger({ runId, version }: { runId: string; version: number }) {
  const [l, setL] = useState<RunLedger | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.ledger, { run: runId }, undefined, ctl.signal).then(setL, (e: unknown) => {
      if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => ctl.abort();
  }, [runId, version]);
  const link = useBucketLink(runId);
  if (error) return <div className="error-box">Signal ledger: {error}</div>;
  if (!l || l.totals.captured === 0) return null;
  const rows = ledgerRows(l);
  return (
    <section data-testid="signal-ledger">
      <h2>Signal ledger</h2>
      <p data-testid="ledger-sentence">{l.sentence}</p>
      <Stages l={l} link={link} />
      {rows.length === 0 ? (
        // Empty axes would read as a chart of nothing: a line says why there is none.
        <>
          <p className="small muted" data-testid="ledger-no-steps">
            Not charted by step: no rollout&apos;s record names its step (<code>step</code> in
            rollouts.jsonl). The totals above are the whole run&apos;s.
          </p>
          <RerenderNote runId={runId} l={l} link={link} />
        </>
      ) : (
        <div className="charts">
          <LedgerChart rows={rows} link={link} groupField={l.group_field} />
          <Rerenders runId={runId} l={l} link={link} />
        </div>
      )}
    </section>
  );
}

/** A stage of the trainer's (loss mask, gradient): no filter of its own, so its delivered rollouts. */
const trainerStage = (g: { key: string; filter: string; noSignalGroups?: true }) =>
  g.filter === "delivered" && g.key !== "delivered" && !g.noSignalGroups;
const TRAINER_STAGE_LINK =
  "The table does not filter by what the trainer did with a rollout's tokens: this lists every rollout that delivered tokens on its main chain.";

function Stages({ l, link }: { l: RunLedger; link: BucketLink }) {
  const pct = (v: number) => `${(100 * v).toFixed(v < 0.01 && v > 0 ? 1 : 0)}%`;
  const u = unknownStages(l.steps);
  const left = [
    u.steps > 0 ? `${plural(u.steps, "step")} without a step file` : null,
    u.stepless ? STEPLESS_WORDS : null,
  ].filter((x) => x !== null);
  const beyond = l.totals.beyond_delivered ?? 0;
  return (
    <>
      <p className="small muted" data-testid="ledger-stages-scope">
        The whole run&apos;s {l.totals.captured.toLocaleString("en-US")} captured generated tokens
        {left.length > 0 &&
          `, ${left.join(" and ")} included (the trainer's stages unknown there, so counted as delivered)`}
        :
      </p>
      <ul className="ledger-stages small" data-testid="ledger-stages">
        {ledgerTotals(l).map((g) => (
          <li key={g.key} data-key={g.key}>
            <span style={{ color: SEGMENT_COLOURS[g.key] }}>●</span> {g.label}:{" "}
            <strong>{g.tokens.toLocaleString("en-US")}</strong> tokens ({pct(g.share)}) ·{" "}
            <Link
              href={link.href(segmentQuery(g, null, l.group_field))}
              data-testid="ledger-stage-link"
              title={trainerStage(g) ? TRAINER_STAGE_LINK : undefined}
            >
              {trainerStage(g) ? "delivered rollouts" : "rollouts"}
            </Link>
          </li>
        ))}
      </ul>
      {beyond > 0 && (
        <p className="small warn-text" data-testid="ledger-beyond">
          Not in these: {plural(beyond, "token", "tokens", beyond.toLocaleString("en-US"))} the
          trainer&apos;s loss mask holds past those the capture delivered (samples whose loss mask
          differs: the trainer truth check).
        </p>
      )}
    </>
  );
}

function Rerenders({ runId, l, link }: { runId: string; l: RunLedger; link: BucketLink }) {
  const rows = rerenderRows(l);
  return (
    <div className="chart-with-note" data-testid="rerender-section">
      <StepChart
        id="rerendered-prefixes"
        title="Re-rendered prefixes: calls whose prompt re-rendered an earlier turn"
        data={rows.map((r) => ({ step: r.step, share: r.share }))}
        series={[{ key: "share", label: "re-rendered calls", color: WARNING }]}
        valueAxis="% of the step's calls"
        stepAxis="step (rollout records)"
        format={(v) => `${+(100 * v).toFixed(2)}%`}
        query={(step) => segmentQuery({ filter: "rerendered" }, step)}
        link={link}
        fromZero
      />
      <RerenderNote runId={runId} l={l} link={link} />
    </div>
  );
}

/** How many calls re-rendered an earlier turn, with links to them and to the first one's token. */
function RerenderNote({ runId, l, link }: { runId: string; l: RunLedger; link: BucketLink }) {
  const first = l.rerendered_sample[0];
  const { calls, rerendered, rerendered_rollouts: rollouts } = l.totals;
  return (
    <p className="small" data-testid="rerender-note">
      {rerendered.toLocaleString("en-US")} of {calls.toLocaleString("en-US")} calls in{" "}
      {rollouts.toLocaleString("en-US")} rollouts re-rendered an earlier turn instead of splicing
      its exact ids.{" "}
      {rerendered > 0 && (
        <Link href={link.href(segmentQuery({ filter: "rerendered" }, null))}>List them</Link>
      )}
      {first && (
        <>
          {" · "}
          <Link href={tokenAtHref(runId, first)} data-testid="rerender-first">
            the first ({first.rollout_id}) at token {first.position.toLocaleString("en-US")}
          </Link>
        </>
      )}
    </p>
  );
}
