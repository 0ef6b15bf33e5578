"use client";
// The run page's container: health (charts, alerts) and the rollouts table. Polls the health route
// every second while the index is being built (with a progress bar) and every 10 s after, so a
// run still being written shows new rollouts without a reload.
import Link from "next/link";
import { useEffect, useState } from "react";
import { fetchParsed } from "@/components/shared/url-state";
import { runHealthSchema, type RunHealth } from "@/lib/schema/api-runs";
import { Alerts, ROLLOUTS_ANCHOR } from "./alerts";
import { HealthCharts } from "./health-charts";
import { RolloutsTable } from "./rollouts-table";
import { TruthCheck } from "./truth-check";

const asHealth = (v: unknown): RunHealth => runHealthSchema.parse(v);

export function RunOverview({ initial }: { initial: RunHealth }) {
  const [health, setHealth] = useState(initial);
  const [version, setVersion] = useState(0);
  const running = health.progress.running;
  useEffect(() => {
    const ctl = new AbortController();
    const t = setTimeout(
      () =>
        fetchParsed(
          `/api/runs/${encodeURIComponent(initial.run_id)}/health`,
          asHealth,
          ctl.signal,
        ).then(
          (h) => {
            setHealth(h);
            if (
              h.rollouts !== health.rollouts ||
              h.progress.done !== health.progress.done ||
              h.masked !== health.masked ||
              h.policy_model !== health.policy_model
            )
              setVersion((v) => v + 1);
          },
          () => undefined,
        ),
      running ? 1000 : 10_000,
    );
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [health, running, initial.run_id]);
  const p = health.progress;
  return (
    <>
      {running && (
        <div className="card progress" data-testid="index-progress">
          Indexing rollouts: {p.done.toLocaleString("en-US")} / {p.total.toLocaleString("en-US")}{" "}
          <progress max={p.total} value={p.done} /> — what is done is shown below.
        </div>
      )}
      {p.error && <div className="error-box">Index error: {p.error}</div>}
      <h2>Alerts</h2>
      <Alerts runId={health.run_id} alerts={health.alerts} />
      {health.notes.map((n) => (
        <p key={n.kind} className="muted health-note" data-testid="health-note" data-kind={n.kind}>
          {n.message}
          {n.table_query && (
            <>
              {" "}
              <Link
                href={`/runs/${encodeURIComponent(health.run_id)}?${n.table_query}#${ROLLOUTS_ANCHOR}`}
              >
                list them in the table
              </Link>
            </>
          )}
        </p>
      ))}
      <h2>Health</h2>
      <HealthCharts h={health} />
      <TruthCheck runId={health.run_id} />
      {/* The alerts' "list all N in the table" links end in #rollouts (components/run/alerts). */}
      <h2 id={ROLLOUTS_ANCHOR}>Rollouts</h2>
      <RolloutsTable runId={health.run_id} health={health} version={version} />
    </>
  );
}
