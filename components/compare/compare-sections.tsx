// The compare page's sections as plain views: evaluation by task and capture health side by side
// (training statistics and the verdict are ./training-section). Numbers print with their intervals.
import Link from "next/link";
import type { ReactNode } from "react";
import type { CaptureSide, Comparison } from "@/lib/schema";
import { CodeSpans } from "@/components/shared/code-spans";
import { CallsChart } from "./compare-charts";
import { diffHref, signed } from "@/lib/view";

const f = (x: number, d = 3) => x.toFixed(d);

export function EvaluationSection({ c }: { c: Comparison }) {
  const e = c.evaluation;
  if (!e) return null;
  const link = (run: string, id: string) => (
    <Link
      key={`${run}/${id}`}
      href={`/runs/${encodeURIComponent(run)}/rollouts/${encodeURIComponent(id)}`}
      className="mono"
    >
      {id}
    </Link>
  );
  return (
    <section data-testid="evaluation">
      <h2>Evaluation: reward per task ({e.tasks} tasks in both)</h2>
      <table className="grid stats" data-testid="evaluation-stats">
        <tbody>
          <tr>
            <th>mean reward per task</th>
            <td data-testid="eval-means">
              {f(e.mean_a)} ({c.a.id}) vs {f(e.mean_b)} ({c.b.id})
            </td>
          </tr>
          <tr>
            <th>paired difference a − b (95% bootstrap CI)</th>
            <td data-testid="eval-diff">
              {signed(e.diff.estimate)} [{signed(e.diff.low)}, {signed(e.diff.high)}]
            </td>
          </tr>
          <tr>
            <th>sign test (exact, two-sided)</th>
            <td data-testid="sign-test">
              {e.sign_test.positive} up, {e.sign_test.negative} down, {e.sign_test.ties} tied; p ={" "}
              {e.sign_test.p.toPrecision(3)}
            </td>
          </tr>
          <tr>
            <th>permutation test (paired sign flips)</th>
            <td data-testid="permutation">
              p = {e.permutation.p.toPrecision(3)} (
              {e.permutation.exact ? "exact" : `${e.permutation.iterations} draws`})
            </td>
          </tr>
          <tr>
            <th title="captured calls plus failed calls that left no token entry">
              mean calls made per rollout (captured + failed + lost)
            </th>
            <td data-testid="mean-calls">
              {f(e.mean_calls_a, 2)} ({c.a.id}) vs {f(e.mean_calls_b, 2)} ({c.b.id})
            </td>
          </tr>
        </tbody>
      </table>
      <div className="charts">
        <CallsChart e={e} a={c.a.id} b={c.b.id} />
        <div className="card changed">
          <h3>Tasks that changed most</h3>
          <table className="grid" data-testid="changed-most">
            <thead>
              <tr>
                <th>task</th>
                <th>{c.a.id}</th>
                <th>{c.b.id}</th>
                <th>a − b</th>
                <th>rollouts</th>
              </tr>
            </thead>
            <tbody>
              {e.changed_most.map((t) => (
                <tr key={t.task} data-testid="changed-row">
                  <td>{t.task}</td>
                  <td>{f(t.a, 2)}</td>
                  <td>{f(t.b, 2)}</td>
                  <td>{signed(t.diff)}</td>
                  <td className="ids">
                    {t.a_rollouts.slice(0, 2).map((id) => link(c.a.id, id))} /{" "}
                    {t.b_rollouts.slice(0, 2).map((id) => link(c.b.id, id))}
                    {t.a_rollouts[0] && t.b_rollouts[0] && (
                      <>
                        {" "}
                        <Link
                          href={diffHref(
                            { run: c.a.id, rollout: t.a_rollouts[0] },
                            { run: c.b.id, rollout: t.b_rollouts[0] },
                          )}
                          data-testid="changed-diff"
                          title="the task's first rollout in each run, side by side"
                        >
                          diff
                        </Link>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

function codes(s: CaptureSide): string {
  return s.status_codes.map((c) => `${c.key}×${c.count}`).join(" ") || "—";
}

/**
 * A count over model calls' statuses: with no status recorded (no model-call store) a failure
 * leaves no trace, so 0 would be a guess; it is "—" there.
 */
const statused =
  (get: (s: CaptureSide) => number) =>
  (s: CaptureSide): string =>
    s.rollouts === 0
      ? "— (no captured rollouts)"
      : s.status_codes.length === 0 && get(s) === 0
        ? "— (no model-call statuses recorded)"
        : String(get(s));

/** A count over captured rollouts: with none captured (capture off) it is not 0 but unknown. */
const captured =
  (get: (s: CaptureSide) => string) =>
  (s: CaptureSide): string =>
    s.rollouts === 0 ? "— (no captured rollouts)" : get(s);

/** The run page's alerts, in their colours; "none" only when the run's health says so. */
function alertList(s: CaptureSide): ReactNode {
  if (s.alerts.length === 0) return "none";
  return (
    <ul className="small" style={{ margin: 0, paddingLeft: 16 }}>
      {s.alerts.map((a, i) => (
        <li
          key={i}
          className={a.severity === "error" ? "bad-text" : "warn-text"}
          data-severity={a.severity}
        >
          <CodeSpans text={a.message} />
        </li>
      ))}
    </ul>
  );
}

export function CaptureSection({ c }: { c: Comparison }) {
  const rows: Array<[string, (s: CaptureSide) => ReactNode, string]> = [
    ["the run page's alerts", alertList, "alerts"],
    ["rollouts", (s) => (s.rollouts === 0 ? "— (none found)" : String(s.rollouts)), "rollouts"],
    ["masked", captured((s) => `${s.masked} (${(s.masked_fraction * 100).toFixed(1)}%)`), "masked"],
    [
      "mask reasons",
      (s) => s.mask_reasons.map((r) => `${r.key} ${r.count}`).join(", ") || "—",
      "reasons",
    ],
    [
      "capture failures (lost calls, dangling intents)",
      captured((s) => String(s.capture_failures)),
      "failures",
    ],
    [
      "invalid rows (unreadable or unbuildable)",
      // An unreadable line of rollouts.jsonl counts even where nothing was captured.
      (s) => (s.rollouts === 0 && s.invalid_rows === 0 ? "—" : String(s.invalid_rows)),
      "invalid",
    ],
    ["model-call status codes", codes, "status"],
    ["failed model calls", statused((s) => s.failed_calls), "failed"],
    [
      "rollouts cut short by a failed call (the last call failed)",
      statused((s) => s.cut_short),
      "cut-short",
    ],
    [
      "logged by the trainer (token_capture/*, summed)",
      (s) =>
        Object.entries(s.logged)
          .map(([k, v]) => `${k.replace("token_capture/", "")} ${v}`)
          .join(", ") || "—",
      "logged",
    ],
  ];
  return (
    <section data-testid="capture">
      <h2>Capture health side by side</h2>
      <table className="grid" data-testid="capture-table">
        <thead>
          <tr>
            <th />
            <th>{c.a.id}</th>
            <th>{c.b.id}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, get, id]) => (
            <tr key={id} data-testid={`capture-${id}`}>
              <th>{label}</th>
              <td>{get(c.capture.a)}</td>
              <td>{get(c.capture.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
