// The rollouts table's columns: header, width, sort key (the column id is the server's sort key)
// and how a cell renders, with the severity pill in the Verdict column, the store's lifecycle and
// attempts (./lifecycle-cell), and row links that carry the table's query into the inspector
// (lib/view/rollout-nav); a deleted rollout with nothing left to read has no link. Record-field
// columns (recordColumn) show a scalar of the rollout's record, fetched for the rows in view.
import type { ColumnDef } from "@tanstack/react-table";
import { RolloutLink } from "./rollout-link";
import type { RolloutSummary, FieldValue } from "@/lib/schema";
import { inspectorHref, callsMade, formatBytes, storeUnread } from "@/lib/view";
import { hasInspectorPage, LifecycleCell } from "./lifecycle-cell";
import { SeverityPill } from "./severity-pill";
import { summarySentences } from "@/lib/severity";
import { fieldText } from "./column-picker";

/**
 * What a cell needs besides its row: the run, the page's parameters (row links carry the table's
 * query) and the chosen record fields' values of the rows in view (rollout id -> path -> value).
 */
export type Ctx = {
  runId: string;
  params: URLSearchParams;
  values?: ReadonlyMap<string, Readonly<Record<string, FieldValue>>>;
};
export type Col = ColumnDef<RolloutSummary> & {
  meta: { render: (s: RolloutSummary, ctx: Ctx) => React.ReactNode; width: number };
};

/**
 * The severity reasons as the banner's sentences (lib/severity summarySentences), then an error no
 * reason names; the codes (`unresolved_retry`, as filters and exports name them) in the title.
 */
function reasonsCell(s: RolloutSummary): { text: string; title: string } {
  if (storeUnread(s)) {
    const title = "Its token store is still being read; the row is its record's until then.";
    return { text: "Token store still being read.", title };
  }
  const said = summarySentences(s);
  const sentences = said.map((r) => r.sentence);
  const named = s.severity_reasons.some((r) => r.code === "build_error");
  if (s.error && !named) sentences.push(`Error: ${s.error}.`);
  if (s.cut_short && !s.severity_reasons.some((r) => r.code === "cut_short"))
    sentences.push(`Cut short: ${s.cut_short}.`);
  const codes = said.map((r) => r.code).join(", ");
  // A table cell has no code spans: the sentences' backticks go.
  const text = sentences.join(" ").replace(/`/g, "");
  return { text, title: codes ? `${text}\ncodes: ${codes}` : text };
}

const num = (v: number | null, digits = 0) =>
  v === null ? "—" : digits ? v.toFixed(digits) : v.toLocaleString("en-US");
/** A count only the token store knows: "—" while the row stands in from its record. */
const storeNum = (s: RolloutSummary, v: number) => (storeUnread(s) ? "—" : num(v));

export const COLUMNS: Col[] = [
  {
    id: "rollout_id",
    accessorFn: (s) => s.rollout_id,
    header: "Rollout",
    meta: {
      width: 110,
      render: (s, c) =>
        hasInspectorPage(s) ? (
          <RolloutLink
            href={inspectorHref(c.runId, s.rollout_id, c.params)}
            run={c.runId}
            rollout={s.rollout_id}
          >
            {s.rollout_id}
          </RolloutLink>
        ) : (
          <span className="mono" title="deleted from the store: nothing is left to inspect">
            {s.rollout_id}
          </span>
        ),
    },
  },
  {
    id: "step",
    accessorFn: (s) => s.step,
    header: "Step",
    meta: { width: 60, render: (s) => num(s.step) },
  },
  {
    id: "reward",
    accessorFn: (s) => s.reward,
    header: "Reward",
    meta: {
      width: 84, // "Reward" and its sort arrow
      render: (s) => num(s.reward, s.reward !== null && !Number.isInteger(s.reward) ? 3 : 0),
    },
  },
  {
    id: "severity",
    accessorFn: (s) => s.severity,
    header: "Verdict",
    meta: {
      // Wide enough for the longest pill ("trained, warnings") with cell padding.
      width: 150,
      render: (s) => (
        <SeverityPill severity={s.severity} reasons={s.severity_reasons} source={s.source} />
      ),
    },
  },
  {
    id: "reasons",
    header: "Reasons / error",
    enableSorting: false,
    meta: {
      width: 320,
      render: (s) => {
        const cell = reasonsCell(s);
        return (
          <span className="cell-text" title={cell.title} data-testid="reasons-cell">
            {cell.text}
          </span>
        );
      },
    },
  },
  {
    id: "lifecycle",
    header: "Lifecycle",
    enableSorting: false,
    meta: {
      width: 200,
      render: (s, c) => <LifecycleCell s={s} runId={c.runId} params={c.params} />,
    },
  },
  {
    id: "n_calls",
    accessorFn: (s) => s.n_calls,
    header: "Calls made",
    meta: {
      width: 80,
      // Calls made: captured, failed (a 422 is a call too) and lost (answered, no token entry).
      render: (s) =>
        storeUnread(s) ? (
          "—"
        ) : (
          <span
            title={`${s.n_calls} captured (token entries) + ${s.failed_calls} failed (HTTP ≥ 400, no token entry) + ${s.lost_calls} lost (answered, no token entry). Status codes counts the same recorded exchanges; a call answered twice counts twice there.`}
          >
            {num(callsMade(s))}
            {s.lost_calls > 0 && (
              <span className="muted small" data-testid="lost-calls">
                {" "}
                ({num(s.lost_calls)} lost)
              </span>
            )}
          </span>
        ),
    },
  },
  {
    id: "chains",
    accessorFn: (s) => s.chains,
    header: "Chains",
    meta: { width: 64, render: (s) => num(s.chains) },
  },
  {
    id: "delivered_fraction",
    accessorFn: (s) => s.delivered_fraction,
    header: "Delivered",
    meta: {
      width: 80,
      render: (s) => {
        if (s.delivered_fraction === null) return "—";
        const pct = `${(s.delivered_fraction * 100).toFixed(1)}%`;
        // A masked rollout's main chain is delivered, yet none of it trains: struck out, as said.
        if (s.severity !== "masked") return pct;
        return (
          <s title="masked: none of it is trained" data-testid="delivered-masked">
            {pct}
          </s>
        );
      },
    },
  },
  {
    id: "side_calls",
    accessorFn: (s) => s.side_calls,
    header: "Side calls",
    meta: { width: 80, render: (s) => storeNum(s, s.side_calls) },
  },
  {
    id: "quarantined",
    accessorFn: (s) => s.quarantined,
    header: "Quarantined",
    meta: { width: 90, render: (s) => storeNum(s, s.quarantined) },
  },
  {
    id: "status",
    header: "Status codes",
    enableSorting: false,
    meta: {
      width: 130,
      render: (s) =>
        storeUnread(s) ? (
          "—"
        ) : (
          <span
            className="mono small"
            title="Every recorded exchange by HTTP status, calls without a token entry (failed or lost) included; a call answered twice counts twice."
          >
            {Object.entries(s.status_codes)
              .map(([k, n]) => `${k}×${n}`)
              .join(" ")}
          </span>
        ),
    },
  },
  {
    id: "failed_calls",
    accessorFn: (s) => s.failed_calls,
    header: "Failed calls",
    meta: { width: 90, render: (s) => storeNum(s, s.failed_calls) },
  },
  {
    // Routed experts replayed from inference that fell back (docs/experts.md); "—" without routes.
    id: "expert_fallback_fraction",
    accessorFn: (s) => s.expert_fallback_fraction,
    header: "Expert fallback",
    meta: {
      width: 120,
      render: (s) =>
        s.expert_fallback_fraction === null ? (
          "—"
        ) : (
          <span
            title={`${s.expert_routes?.fallback ?? 0} of ${s.expert_routes?.expected ?? 0} routes on the main chain fell back to the trainer's router or are missing`}
          >
            {(s.expert_fallback_fraction * 100).toFixed(2)}%
          </span>
        ),
    },
  },
  {
    id: "bytes",
    accessorFn: (s) => s.bytes,
    header: "Size",
    meta: { width: 80, render: (s) => (s.bytes ? formatBytes(s.bytes) : "—") },
  },
];

/** The id prefix of a record-field column: `field:agent_ref.name`. */
export const FIELD_COLUMN = "field:";

/** A column showing the record field `path`; "…" until its value arrived, "—" where the record has none. */
export function recordColumn(path: string): Col {
  return {
    id: `${FIELD_COLUMN}${path}`,
    header: path,
    enableSorting: false,
    meta: {
      width: Math.min(220, Math.max(90, path.length * 8)),
      render: (s, c) => {
        const row = c.values?.get(s.rollout_id);
        if (!row) return <span className="muted">…</span>;
        const text = fieldText(row[path]);
        return (
          <span
            className="mono small"
            title={text}
            data-testid="record-field-value"
            data-path={path}
          >
            {text}
          </span>
        );
      },
    },
  };
}
