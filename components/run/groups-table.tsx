"use client";
// GRPO groups of a run (/api/runs/{run}/groups): one row per group (a task's rollouts in one step)
// with each rollout's reward, the spread, each one's advantage linking to it, and equal-reward
// groups flagged in the severity model's warning colour (no training signal). State is in the URL
// (GROUP_KEYS). Also the run page's per-step count of such groups (GroupSignal).
import Link from "next/link";
import { useEffect, useState } from "react";
import { useUrlReady, type UrlPatch } from "@/components/shared/url-state";
import { useUrlFlag } from "@/components/shared/use-url-flag";
import { type RolloutGroup, type RunGroups, API, apiUrl } from "@/lib/schema";
import { SEVERITY_CLASS } from "@/lib/severity";
import { inspectorHref, signed } from "@/lib/view";
import { plural } from "@/lib/text";
import { ROLLOUTS_ANCHOR } from "./alerts";
import { fieldText } from "./column-picker";
import { GroupDiff } from "./group-diff";
import { getApi } from "@/components/shared/api";

export const GROUP_KEYS = ["group", "group_step", "group_signal", "group_offset"] as const;
export const TASK_FIELD = "_ng_task_index";
const LIMIT = 200;
const NO_SIGNAL = "no training signal (all rewards equal)";

function useGroups(runId: string, query: string): { body: RunGroups | null; error: string | null } {
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
  const { body, error } = useGroups(runId, q.toString());
  const [noSignalOnly, setNoSignalOnly] = useUrlFlag(params.get("group_signal") === "none");
  const page = (o: number) => set({ group_offset: o > 0 ? String(o) : null });
  const ready = useUrlReady();
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
      {body && <GroupsTable runId={runId} params={params} body={body} page={page} />}
    </div>
  );
}

type TableProps = { runId: string; params: URLSearchParams; body: RunGroups };

function GroupsTable(props: TableProps & { page: (offset: number) => void }) {
  const { body, page } = props;
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
        Advantage as NeMo-RL&apos;s GRPO gives it:{" "}
        {d.baseline === "leave_one_out"
          ? "reward − the mean of the group's other rewards"
          : "reward − the group's mean reward"}
        {d.normalize && `, divided by their sample std + ${d.epsilon} where that std is above 0`}.
        Rewards all exactly equal: every advantage is 0.
      </p>
      <table className="grid" data-testid="groups-table">
        <thead>
          <Headers
            names={["Step", body.by === TASK_FIELD ? "Task" : (body.by ?? ""), "n", "Rewards"]}
            more={["Mean", "Spread (std · min–max)", "Advantage per rollout", "Signal", "Diff"]}
          />
        </thead>
        <tbody>
          {body.groups.map((g) => (
            <GroupRow key={`${g.step}:${String(g.key)}`} g={g} {...props} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function GroupRow({ g, runId, params }: TableProps & { g: RolloutGroup }) {
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
            {num(m.reward)}
          </span>
        ))}
      </td>
      <td>{g.mean === null ? "—" : g.mean.toFixed(3)}</td>
      <td className="mono small">
        {g.std === null ? "—" : `${g.std.toFixed(3)} · ${num(g.min)}–${num(g.max)}`}
      </td>
      <td className="mono">
        {g.members.map((m, i) => (
          <span key={m.rollout_id}>
            {i > 0 && " "}
            <Link
              href={inspectorHref(runId, m.rollout_id, params)}
              data-testid="group-advantage"
              data-rollout-id={m.rollout_id}
              data-advantage={m.advantage ?? ""}
              title={`rollout ${m.rollout_id}: reward ${num(m.reward)}`}
            >
              {m.advantage === null ? "—" : signed(m.advantage)}
            </Link>
          </span>
        ))}
      </td>
      <td>
        {g.no_signal ? (
          <span
            className={`badge ${SEVERITY_CLASS.trained_with_warnings}`}
            data-testid="group-no-signal"
            style={{ whiteSpace: "nowrap" }}
          >
            {NO_SIGNAL}
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        <GroupDiff runId={runId} g={g} />
      </td>
    </tr>
  );
}

function Headers({ names, more = [] }: { names: string[]; more?: string[] }) {
  return (
    <tr>
      {[...names, ...more].map((h) => (
        <th key={h}>{h}</th>
      ))}
    </tr>
  );
}

/**
 * The run page's count of groups without training signal per step; nothing for a run without
 * groups of two or more (one rollout per task is not GRPO: every such "group" would be flagged).
 */
export function GroupSignal({ runId }: { runId: string }) {
  const { body } = useGroups(runId, "limit=1");
  if (!body || body.by === null || body.max_group_size < 2) return null;
  const total = body.per_step.reduce((a, s) => a + s.groups, 0);
  const none = body.per_step.reduce((a, s) => a + s.no_signal, 0);
  const href = (q: Record<string, string>) =>
    `/runs/${encodeURIComponent(runId)}?${new URLSearchParams({ group: body.by ?? TASK_FIELD, ...q }).toString()}#${ROLLOUTS_ANCHOR}`;
  return (
    <section data-testid="group-signal">
      <h2>GRPO groups</h2>
      <p className="muted">
        {none} of {plural(total, "group")} (by {body.by === TASK_FIELD ? "task" : body.by} and step)
        carry <span className={`badge ${SEVERITY_CLASS.trained_with_warnings}`}>{NO_SIGNAL}</span>:
        each of their rollouts gets advantage 0.{" "}
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
            <Headers names={["Step", "Groups", "No signal"]} />
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
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
