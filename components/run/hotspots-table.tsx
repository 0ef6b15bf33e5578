// One table of the mismatch hotspots (./hotspots): a row per key with its count, mean error, tail
// share and worst occurrence, linked to the inspector at that token with mismatch colouring on (and
// the routed experts panel, for the MoE table). Plain view: the container fetched the rows.
import Link from "next/link";
import type { ReactNode } from "react";
import type { HotspotRow, HotspotStat } from "@/lib/schema";
import { mismatchTokenHref } from "@/lib/view";

export const n = (v: number) => v.toLocaleString("en-US");
export const pct = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.01 ? 2 : 1)}%`;

/** The worst occurrence's error, a link when the truth check joined it to a rollout. */
export function WorstLink({
  runId,
  s,
  experts = false,
}: {
  runId: string;
  s: HotspotStat;
  experts?: boolean;
}) {
  const w = s.worst;
  // Not "no rollout": the sample may join one whose chain differs from the trainer's from here on.
  if (w.rollout_id === null)
    return (
      <span
        className="muted"
        title="not linked: the sample has no capture, or the trainer's tokens differ from the capture's at or before this position (the truth check above says which)"
        data-testid="hotspots-unlinked"
      >
        {s.max.toFixed(3)} ({w.file} line {w.line}, position {n(w.pos)})
      </span>
    );
  return (
    <Link
      href={mismatchTokenHref(runId, w.rollout_id, w.pos, { experts })}
      title={`${w.file} line ${w.line}, position ${w.pos}`}
      data-testid="hotspots-link"
    >
      {s.max.toFixed(3)}
    </Link>
  );
}

export function HotspotTable(props: {
  runId: string;
  testId: string;
  title: string;
  head: string;
  rows: HotspotRow[];
  distinct: number;
  minCount: number;
  label: (r: HotspotRow) => ReactNode;
  experts?: boolean;
}) {
  const { rows, minCount } = props;
  return (
    <table className="grid" data-testid={props.testId}>
      <caption>
        {props.title} ({n(rows.length)} of {n(props.distinct)} distinct
        {minCount > 1 ? `, seen ${minCount}+ times` : ""})
      </caption>
      <thead>
        <tr>
          <th>{props.head}</th>
          <th>count</th>
          <th>mean</th>
          <th>tail</th>
          <th>worst</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr data-testid="hotspots-none">
            <td colSpan={5} className="muted">
              {minCount > 1
                ? `none seen ${minCount} times or more: too few samples to rank them`
                : "none"}
            </td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.key} data-testid="hotspots-row" data-key={r.key}>
            <td>{props.label(r)}</td>
            <td>{n(r.count)}</td>
            <td>{r.mean.toFixed(4)}</td>
            <td>{pct(r.tail_share)}</td>
            <td>
              <WorstLink runId={props.runId} s={r} experts={props.experts} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
