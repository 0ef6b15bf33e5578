"use client";
// Filters of the rollouts table (verdict, severity class, reason: a mask reason or a warning of the
// severity model, status code, step, cut short, an alert's rollouts, a rollout id or error
// message: `q`, over the summaries, not the rollouts' text, which ./text-search searches), the column
// chooser, the record-field picker (./column-picker) and the switch to GRPO groups by task.
// Everything is a URL parameter, so a filtered table can be linked (alerts link here).
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { useUrlText } from "@/components/shared/use-url-text";
import type { Table } from "@tanstack/react-table";
import type { RolloutSummary, RunHealth, RecordField } from "@/lib/schema";
import { SEVERITY_LABEL, SEVERITY_ORDER } from "@/lib/severity";
import { reasonOptions, TABLE_QUERY_KEYS as QUERY_KEYS, type ReasonOption } from "@/lib/view";
import { useUrlReady, type UrlPatch } from "@/components/shared/url-state";
import { ColumnPicker } from "./column-picker";
import { FIELD_COLUMN } from "./rollout-columns";
import { TASK_FIELD } from "./groups-table";

/** The URL keys that narrow the table (not its order): clearing these shows every rollout. */
export const FILTER_KEYS = QUERY_KEYS.filter((k) => k !== "sort" && k !== "dir");

/** The table's server query from the page URL (only the keys the rollouts route understands). */
export function queryFrom(params: URLSearchParams): string {
  const q = new URLSearchParams();
  for (const k of QUERY_KEYS) {
    const v = params.get(k);
    if (v) q.set(k, v);
  }
  return q.toString();
}

export function TableFilters({
  health,
  params,
  set,
  table,
  recordFields,
}: {
  health: RunHealth;
  params: URLSearchParams;
  set: (p: UrlPatch) => void;
  table: Table<RolloutSummary>;
  /** The run's record fields ([] without records or while loading). */
  recordFields: RecordField[];
}) {
  const [text, setText] = useUrlText("q", params, set, 250);
  // Disabled until the URL takes updates: a choice made as the page hydrates would be lost.
  const ready = useUrlReady();
  const [cutShort, setCutShort] = useUrlFlag(params.get("cut_short") === "1");
  const select = (key: string, label: string, options: Array<[string, string]>) => (
    <label>
      {label}{" "}
      <select
        value={params.get(key) ?? ""}
        onChange={(e) => set({ [key]: e.target.value || null })}
        data-testid={`filter-${key}`}
      >
        <option value="">all</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
  // An alert's or a note's link sets `alert`: shown (and cleared) here like any filter, and a
  // value no alert offers (an old link) still shows as applied.
  const alerts: Array<[string, string]> = [...health.alerts, ...health.notes]
    .filter((a) => a.table_query === `alert=${a.kind}`)
    .map((a) => [a.kind, `${a.kind.replace(/_/g, " ")} (${a.count})`]);
  const applied = params.get("alert");
  if (applied && !alerts.some(([k]) => k === applied))
    alerts.push([applied, applied.replace(/_/g, " ")]);
  return (
    <fieldset className="toolbar" disabled={!ready} data-testid="table-filters">
      {select("verdict", "verdict", [
        ["masked", "masked"],
        ["trained", "trained (with or without warnings)"],
      ])}
      {select(
        "severity",
        "severity",
        SEVERITY_ORDER.filter((s) => s !== "pending").map((s) => [
          s,
          // While the run indexes, a count is of the rollouts indexed so far.
          `${SEVERITY_LABEL[s]} (${health.severity[s]}${health.progress.running ? " so far" : ""})`,
        ]),
      )}
      <ReasonFilter
        options={reasonOptions(health)}
        value={params.get("reason") ?? ""}
        onChange={(v) => set({ reason: v || null })}
      />
      {select(
        "status",
        "status",
        health.status_codes.map((r) => [r.key, `${r.key} (${r.count})`]),
      )}
      {health.per_step.length > 0 &&
        select(
          "step",
          "step",
          health.per_step.map((p) => [String(p.step), String(p.step)]),
        )}
      {alerts.length > 0 && select("alert", "alert", alerts)}
      <label>
        <input
          type="checkbox"
          checked={cutShort}
          onChange={(e) => {
            setCutShort(e.target.checked);
            set({ cut_short: e.target.checked ? "1" : null });
          }}
          data-testid="filter-cut-short"
        />{" "}
        cut short
      </label>
      <label title="Rollouts whose id or error message holds this text (not the text the model read or wrote: that is Search text)">
        id or error{" "}
        <input
          className="search"
          type="search"
          placeholder="3-1, ValueError…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="filter-q"
        />
      </label>
      <details className="columns">
        <summary>columns</summary>
        {table
          .getAllLeafColumns()
          .filter((c) => !c.id.startsWith(FIELD_COLUMN))
          .map((c) => (
            <label key={c.id} className="col-choice">
              <input
                type="checkbox"
                checked={c.getIsVisible()}
                onChange={c.getToggleVisibilityHandler()}
                data-testid={`col-${c.id}`}
              />{" "}
              {String(c.columnDef.header)}
            </label>
          ))}
      </details>
      <ColumnPicker fields={recordFields} params={params} set={set} />
      {recordFields.some((f) => f.path === TASK_FIELD) && (
        <button
          className="linkish"
          onClick={() => set({ group: TASK_FIELD })}
          data-testid="group-by-task"
          title="one row per GRPO group: a task's rollouts in one step"
        >
          group by task
        </button>
      )}
    </fieldset>
  );
}

/** The reason filter: mask reasons and warnings in two groups, each with its count in the run. */
function ReasonFilter(props: {
  options: ReasonOption[];
  value: string;
  onChange: (value: string) => void;
}) {
  const groups = (["mask reasons", "warnings"] as const)
    .map((g) => [g, props.options.filter((o) => o.group === g)] as const)
    .filter(([, list]) => list.length > 0);
  return (
    <label>
      reason{" "}
      <select
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid="filter-reason"
      >
        <option value="">all</option>
        {groups.map(([g, list]) => (
          <optgroup key={g} label={g}>
            {list.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
