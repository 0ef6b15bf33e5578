"use client";
// GRPO groups of a run (/api/runs/{run}/groups): one row per group (a task's rollouts in one step)
// with each rollout's reward, the spread, each one's advantage linking to it, and equal-reward
// groups flagged in the severity model's warning colour (no training signal). State is in the URL
// (GROUP_KEYS). The run page's per-step count of such groups is ./group-signal.
import { useEffect, useState } from "react";
import { useUrlReady, type UrlPatch } from "@/components/shared/url-state";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { type AdvantageRule, type RolloutGroup, type RunGroups, API, apiUrl } from "@/lib/schema";
import { SEVERITY_CLASS } from "@/lib/severity";
import { signed } from "@/lib/view";
import { plural } from "@/lib/text";
import { fieldText } from "./column-picker";
import { GroupDiff } from "./group-diff";
import {
  LoggedCell,
  LoggedLine,
  MemberLinks,
  RuleControls,
  ruleKeys,
  ruleOf,
} from "./groups-logged";
import { getApi } from "@/components/shared/api";

export const GROUP_KEYS = [
  "group",
  "group_step",
  "group_signal",
  "group_offset",
  "group_baseline",
  "group_normalize",
] as const;
export const TASK_FIELD = "_ng_task_index";
const LIMIT = 200;
export const NO_SIGNAL = "no training signal (all rewards equal)";

export function useGroups(
  runId: string,
  query: string,
): { body: RunGroups | null; error: string | null } {
  const url = apiUrl(API.groups, { run: runId }, new URLSearchParams(query));
  const [got, setGot] = useState<{ url: string; body: RunGroups | null; error: string | null }>();
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.groups, { run: runId }, new URLSearchParams(query), ctl.signal).then(
      (body) => setGot({ url, body, error: null }),
      (err: unknown) =>
        !ctl.signal.aborted && setGot({ url, body: null, error: (err as Error).message }),
    );
    return () => ctl.abort();
  }, [url, runId, query]);
  return got?.url === url ? got : { body: null, error: null };
}

const num = (v: number | null) => (v === null ? "—" : fieldText(v));

/** The groups view in place of the rollouts table: toolbar, count, and one row per group. */
export function GroupsView({
  runId,
  params,
  set,
}: {
  runId: string;
  params: URLSearchParams;
  set: (p: UrlPatch) => void;
}) {
  const by = params.get("group") ?? TASK_FIELD;
  const offset = Number(params.get("group_offset") ?? "0") || 0;
  const q = new URLSearchParams({ by, offset: String(offset), limit: String(LIMIT) });
  const step = params.get("group_step");
  if (step) q.set("step", step);
  if (params.get("group_signal") === "none") q.set("signal", "none");
  const rule = ruleOf(params);
  q.set("baseline", rule.baseline);
  q.set("normalize", rule.normalize ? "1" : "0");
  const { body, error } = useGroups(runId, q.toString());
  const [noSignalOnly, setNoSignalOnly] = useUrlFlag(params.get("group_signal") === "none");
  const page = (o: number) => set({ group_offset: o > 0 ? String(o) : null });
  const ready = useUrlReady();
  const use = (r: AdvantageRule) => set(ruleKeys(r));
  return (
    <div data-testid="groups-view">
      {/* Disabled until the URL takes updates (components/shared/url-state useUrlReady). */}
      <fieldset className="toolbar" disabled={!ready}>
        <label>
          group by{" "}
          <select
            value={by}
            onChange={(e) => set({ group: e.target.value, group_offset: null })}
            data-testid="group-by"
          >
            {(body?.fields ?? [by]).map((f) => (
              <option key={f} value={f}>
                {f === TASK_FIELD ? "task (_ng_task_index)" : f}
              </option>
            ))}
          </select>
        </label>
        {step !== null && (
          <button className="linkish" onClick={() => set({ group_step: null, group_offset: null })}>
            step {step} (show every step)
          </button>
        )}
        <label>
          <input
            type="checkbox"
            checked={noSignalOnly}
            onChange={(e) => {
              setNoSignalOnly(e.target.checked);
              set({ group_signal: e.target.checked ? "none" : null, group_offset: null });
            }}
            data-testid="group-no-signal-only"
          />{" "}
          only groups with no signal
        </label>
        <RuleControls rule={rule} use={use} />
        <button
          className="linkish"
          onClick={() => set(Object.fromEntries(GROUP_KEYS.map((k) => [k, null])))}
          data-testid="group-off"
        >
          back to rollouts
        </button>
      </fieldset>
      {error && (
        <div className="error-box" role="alert" data-testid="groups-error">
          Could not group the rollouts: {error}
        </div>
      )}
      {!error && !body && <p className="muted">loading groups…</p>}
      {body && <GroupsTable runId={runId} params={params} body={body} page={page} use={use} />}
    </div>
  );
}

type TableProps = { runId: string; params: URLSearchParams; body: RunGroups };

function GroupsTable(
  props: TableProps & { page: (offset: number) => void; use: (r: AdvantageRule) => void },
) {
  const { body, page, use } = props;
  const d = body.definition;
  const shown = body.groups.length;
  return (
    <>
      <div className="table-meta">
        <span className="muted" data-testid="groups-count" data-total={body.total}>
          {shown < body.total
            ? `groups ${body.offset + 1}–${body.offset + shown} of ${body.total}`
            : plural(body.total, "group")}
          {body.ungrouped > 0 && ` · ${plural(body.ungrouped, "record")} without ${body.by}`}
        </span>
        {body.offset > 0 && (
          <button className="linkish" onClick={() => page(Math.max(0, body.offset - LIMIT))}>
            previous
          </button>
        )}
        {body.offset + shown < body.total && (
          <button className="linkish" onClick={() => page(body.offset + LIMIT)}>
            next
          </button>
        )}
      </div>
      <p className="muted small" data-testid="groups-definition" title={d.source}>
        Advantage from the rewards as NeMo-RL&apos;s GRPO computes it with this rule:{" "}
        {d.baseline === "leave_one_out"
          ? "reward − the mean of the group's other rewards"
          : "reward − the group's mean reward"}
        {d.normalize && `, divided by their sample std + ${d.epsilon} where that std is above 0`}.
        In a group whose rewards are all exactly equal, every advantage is 0.
        {body.groups.some((g) => g.members.some((m) => m.masked)) &&
          " A masked rollout's reward is struck out: it does not vote (mean and spread leave it out)."}
      </p>
      <LoggedLine body={body} use={use} />
      <table className="grid" data-testid="groups-table">
        <thead>
          <Headers
            names={["Step", body.by === TASK_FIELD ? "Task" : (body.by ?? ""), "n", "Rewards"]}
            more={[
              "Mean",
              "Spread (std · min–max)",
              body.logged ? "Advantage per rollout (this rule)" : "Advantage per rollout",
              ...(body.logged ? ["Logged by the trainer"] : []),
              "Signal",
              "Diff",
            ]}
          />
        </thead>
        <tbody>
          {body.groups.map((g) => (
            <GroupRow
              key={`${g.step}:${String(g.key)}`}
              g={g}
              runId={props.runId}
              params={props.params}
              body={body}
            />
          ))}
        </tbody>
      </table>
    </>
  );
}

function GroupRow({ g, runId, params, body }: TableProps & { g: RolloutGroup }) {
  return (
    <tr
      data-testid="group-row"
      data-step={g.step ?? ""}
      data-key={String(g.key)}
      data-no-signal={g.no_signal ? "1" : "0"}
    >
      <td>{num(g.step)}</td>
      <td className="mono">{fieldText(g.key)}</td>
      <td>{g.n}</td>
      <td className="mono">
        {g.members.map((m, i) => (
          <span
            key={m.rollout_id}
            data-testid="group-reward"
            data-rollout-id={m.rollout_id}
            data-reward={m.reward ?? ""}
            title={`${m.rollout_id}${m.masked ? " (masked: does not vote)" : ""}`}
            className={m.masked ? "muted" : undefined}
          >
            {i > 0 && " "}
            {m.masked ? <s>{num(m.reward)}</s> : num(m.reward)}
          </span>
        ))}
      </td>
      <td>{g.mean === null ? "—" : g.mean.toFixed(3)}</td>
      <td className="mono small">
        {g.std === null ? "—" : `${g.std.toFixed(3)} · ${num(g.min)}–${num(g.max)}`}
      </td>
      <MemberLinks
        g={g}
        runId={runId}
        params={params}
        link={(m) => ({
          text: m.advantage === null ? "—" : signed(m.advantage),
          title: `reward ${num(m.reward)}`,
          attrs: {
            "data-testid": "group-advantage",
            "data-advantage": m.advantage === null ? "" : String(m.advantage),
          },
        })}
      />
      {body.logged && <LoggedCell g={g} runId={runId} params={params} />}
      <td>
        {g.no_signal ? (
          <span
            className={`badge ${SEVERITY_CLASS.trained_with_warnings}`}
            data-testid="group-no-signal"
            style={{ whiteSpace: "nowrap" }}
          >
            {NO_SIGNAL}
          </span>
        ) : g.members.every((m) => m.reward === null) ? (
          <span className="muted" data-testid="group-no-rewards">
            not known: no reward recorded
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        <GroupDiff runId={runId} g={g} rule={body.definition} />
      </td>
    </tr>
  );
}

export function Headers({ names, more = [] }: { names: string[]; more?: string[] }) {
  return (
    <tr>
      {[...names, ...more].map((h) => (
        <th key={h}>{h}</th>
      ))}
    </tr>
  );
}
