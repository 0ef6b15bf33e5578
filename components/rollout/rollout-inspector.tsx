"use client";
// The inspector's container: owns the URL state (call, chain, tab, pos, low) and wires the call
// tree, the token view, the call detail and the chain panel. The view model and the first token
// window come from the server page; the token view asks for later windows itself.
import { useEffect, useMemo } from "react";
import { useRouter } from "next/navigation";
import { rolloutStampSchema, type RolloutView } from "@/lib/schema/api-rollout";
import { rolloutSeverity } from "@/lib/view/rollout-severity";
import { INSPECTOR_TABS, positionOf, sequenceOf, tabOf, type InspectorTab } from "@/lib/view/inspector-url";
import { CallTree } from "./call-tree";
import { CallDetailPane } from "./call-detail-pane";
import { ChainPanel } from "./chain-panel";
import { TokenView } from "./token-view";
import { short } from "./labels";
import { fetchParsed, useUrlState } from "@/components/shared/url-state";
import { TokenSeedContext, type TokenWindowSeed } from "./use-token-windows";

const TAB_LABELS: Record<InspectorTab, string> = { tokens: "Tokens", call: "Call detail", chains: "Why this chain" };

const asStamp = (v: unknown) => rolloutStampSchema.parse(v);

export function RolloutInspector({ view, seed }: { view: RolloutView; seed: TokenWindowSeed | null }) {
  const [params, set] = useUrlState();
  useLiveStamp(view);
  const base = `/api/runs/${encodeURIComponent(view.run_id)}/rollouts/${encodeURIComponent(view.rollout_id)}`;
  const profile = params.get("profile");
  const profileQs = profile ? `&profile=${encodeURIComponent(profile)}` : "";
  const selected = params.get("call");
  const tab = tabOf(params.get("tab"));
  const sequence = sequenceOf(view, params.get("chain"));
  const pos = positionOf(params.get("pos"));
  const severity = useMemo(() => rolloutSeverity(view).severity, [view]);
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
          <CallTree calls={view.calls} failed={view.failed} selected={selected} onSelect={(id) => set({ call: id, tab: "call" })} />
        )}
      </div>
      <div className="inspector-right">
        <nav className="tabs" role="tablist">
          {INSPECTOR_TABS.map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? "on" : ""} onClick={() => set({ tab: t })} data-testid={`tab-${t}`}>
              {TAB_LABELS[t]}
            </button>
          ))}
        </nav>
        {tab === "tokens" && (
          <TokenSeedContext.Provider value={seed}>
            <TokenView base={base} profileQs={`${profileQs}&v=${view.stamp}`} sequence={sequence} sequences={sequences} verdict={severity} pos={pos} low={params.get("low")} onPatch={set} />
          </TokenSeedContext.Provider>
        )}
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
      fetchParsed(url, asStamp, ctl.signal).then(
        ({ stamp }) => stamp !== view.stamp && router.refresh(),
        () => undefined,
      );
    }, 5000);
    return () => {
      clearInterval(timer);
      ctl.abort();
    };
  }, [view.run_id, view.rollout_id, view.stamp, router]);
}
