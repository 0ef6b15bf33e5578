"use client";
// The inspector's container: owns the URL state (call, chain, tab, pos, low) and wires the call
// tree, the token view, the call detail and the chain panel. The view model comes from the server.
import { useEffect, useMemo } from "react";
import { useRouter } from "next/navigation";
import type { RolloutView } from "@/lib/inspect/rollout-model";
import { CallTree } from "./call-tree";
import { CallDetailPane } from "./call-detail-pane";
import { ChainPanel } from "./chain-panel";
import { TokenView } from "./token-view";
import { short } from "./labels";
import { useUrlState } from "@/components/shared/url-state";

const TABS = [
  ["tokens", "Tokens"],
  ["call", "Call detail"],
  ["chains", "Why this chain"],
] as const;
type Tab = (typeof TABS)[number][0];

export function RolloutInspector({ view }: { view: RolloutView }) {
  const [params, set] = useUrlState();
  useLiveStamp(view);
  const base = `/api/runs/${encodeURIComponent(view.run_id)}/rollouts/${encodeURIComponent(view.rollout_id)}`;
  const profile = params.get("profile");
  const profileQs = profile ? `&profile=${encodeURIComponent(profile)}` : "";
  const selected = params.get("call");
  const tabParam = params.get("tab");
  const tab: Tab = TABS.some(([t]) => t === tabParam) ? (tabParam as Tab) : "tokens";
  const sequence = params.get("chain") ?? (view.chains.length > 0 ? "main" : view.calls[0] ? `call:${view.calls[0].model_call_id}` : "main");
  const posParam = params.get("pos");
  const pos = posParam !== null && /^\d+$/.test(posParam) ? Number(posParam) : null;
  const callById = useMemo(() => new Map(view.calls.map((c) => [c.model_call_id, c])), [view.calls]);

  const sequences = useMemo(() => {
    const out = view.chains.map((c) => ({ value: c.chain_id, label: `${c.chain_id} (${c.call_ids.length} calls)` }));
    const callSeqs = new Set([selected, sequence.startsWith("call:") ? sequence.slice(5) : null].filter((x): x is string => x !== null && callById.has(x)));
    for (const id of callSeqs) out.push({ value: `call:${id}`, label: `call ${short(id)} alone` });
    return out;
  }, [view.chains, selected, sequence, callById]);

  return (
    <div className="inspector">
      <div className="inspector-left">
        <h2>
          Calls <span className="muted small">{view.calls.length} captured{view.failed.length ? `, ${view.failed.length} failed` : ""}</span>
        </h2>
        {view.calls.length + view.failed.length === 0 ? (
          <div className="card empty">No calls were captured for this rollout.</div>
        ) : (
          <CallTree calls={view.calls} failed={view.failed} selected={selected} onSelect={(id) => set({ call: id, tab: tab === "chains" ? "call" : tab === "tokens" ? "call" : tab })} />
        )}
      </div>
      <div className="inspector-right">
        <nav className="tabs" role="tablist">
          {TABS.map(([t, label]) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? "on" : ""} onClick={() => set({ tab: t })} data-testid={`tab-${t}`}>
              {label}
            </button>
          ))}
        </nav>
        {tab === "tokens" && <TokenView base={base} profileQs={`${profileQs}&v=${view.stamp}`} sequence={sequence} sequences={sequences} pos={pos} low={params.get("low")} onPatch={set} />}
        {tab === "call" &&
          (selected ? (
            <CallDetailPane key={selected} base={base} callId={selected} call={callById.get(selected) ?? null} onShowTokens={() => set({ tab: "tokens", chain: `call:${selected}`, pos: null })} />
          ) : (
            <p className="muted">Select a call in the tree.</p>
          ))}
        {tab === "chains" && <ChainPanel view={view} onOpenChain={(id) => set({ tab: "tokens", chain: id, pos: null })} onSelectCall={(id) => set({ call: id, tab: "call" })} />}
      </div>
    </div>
  );
}

/** A rollout still being written: poll its file stamp every 5 s and re-render when it changes. */
function useLiveStamp(view: RolloutView) {
  const router = useRouter();
  useEffect(() => {
    const url = `/api/runs/${encodeURIComponent(view.run_id)}/rollouts/${encodeURIComponent(view.rollout_id)}?stamp=1`;
    const ctl = new AbortController();
    const timer = setInterval(() => {
      fetch(url, { signal: ctl.signal })
        .then((r) => (r.ok ? (r.json() as Promise<{ stamp?: string }>) : null))
        .then((body) => body?.stamp && body.stamp !== view.stamp && router.refresh())
        .catch(() => undefined);
    }, 5000);
    return () => {
      clearInterval(timer);
      ctl.abort();
    };
  }, [view.run_id, view.rollout_id, view.stamp, router]);
}
