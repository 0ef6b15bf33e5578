"use client";
// The run page's count of GRPO groups without training signal per step (all rewards equal: every
// advantage 0), linking to the groups view (./groups-table) on a step's such groups.
import Link from "next/link";
import { SEVERITY_CLASS } from "@/lib/severity";
import { counted, plural } from "@/lib/text";
import { fieldText } from "./column-picker";
import { ROLLOUTS_ANCHOR } from "./alerts";
import { Headers, NO_SIGNAL, TASK_FIELD, useGroups } from "./groups-table";

const num = (v: number | null) => (v === null ? "—" : fieldText(v));

/**
 * The run page's count of groups without training signal per step; nothing for a run without
 * groups of two or more (one rollout per task is not GRPO: every such "group" would be flagged).
 */
export function GroupSignal({ runId }: { runId: string }) {
  const { body } = useGroups(runId, "limit=1");
  if (!body || body.by === null || body.max_group_size < 2) return null;
  const total = body.per_step.reduce((a, s) => a + s.groups, 0);
  const none = body.per_step.reduce((a, s) => a + s.no_signal, 0);
  const unknown = body.per_step.reduce((a, s) => a + s.no_rewards, 0);
  const byWords = `${body.by === TASK_FIELD ? "task" : body.by} and step`;
  const href = (q: Record<string, string>) =>
    `/runs/${encodeURIComponent(runId)}?${new URLSearchParams({ group: body.by ?? TASK_FIELD, ...q }).toString()}#${ROLLOUTS_ANCHOR}`;
  return (
    <section data-testid="group-signal">
      <h2>GRPO groups</h2>
      <p className="muted">
        {unknown === total ? (
          <span data-testid="group-signal-unknown">
            None of the {plural(total, "group", "groups", total.toLocaleString("en"))} (by {byWords}
            ) has a reward in its records: whether they carry a training signal is not known.{" "}
          </span>
        ) : (
          <>
            {none.toLocaleString("en")} of{" "}
            {plural(total - unknown, "group", "groups", (total - unknown).toLocaleString("en"))} (by{" "}
            {byWords}) {unknown > 0 && "with rewards "}carry{" "}
            <span className={`badge ${SEVERITY_CLASS.trained_with_warnings}`}>{NO_SIGNAL}</span>:
            each of their rollouts gets advantage 0.{" "}
            {unknown > 0 && (
              <span data-testid="group-signal-unknown">
                {counted(unknown, "more group", "has", "have")} no reward recorded: whether they
                carry a signal is not known.{" "}
              </span>
            )}
          </>
        )}
        <Link href={href({})} data-testid="group-signal-open">
          Show the groups
        </Link>
      </p>
      <div
        style={{ maxHeight: 280, overflowY: "auto", width: "fit-content" }}
        tabIndex={0}
        role="region"
        aria-label="groups per step"
      >
        <table className="grid" style={{ width: "auto" }}>
          <thead>
            <Headers
              names={["Step", "Groups", "No signal", ...(unknown > 0 ? ["No reward"] : [])]}
            />
          </thead>
          <tbody>
            {body.per_step.map((s) => (
              <tr key={String(s.step)} data-testid="group-signal-step" data-step={s.step ?? ""}>
                <td>{num(s.step)}</td>
                <td>{s.groups}</td>
                <td data-testid="group-signal-count" data-count={s.no_signal}>
                  {s.no_signal > 0 && s.step !== null ? (
                    <Link href={href({ group_step: String(s.step), group_signal: "none" })}>
                      {s.no_signal}
                    </Link>
                  ) : (
                    s.no_signal
                  )}
                </td>
                {unknown > 0 && <td data-testid="group-signal-no-rewards">{s.no_rewards}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
