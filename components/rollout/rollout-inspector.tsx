"use client";
// The inspector's container: owns the URL state (call, chain, tab, pos, low, message, shade, find)
// and wires the call timeline, the token and conversation views, the call detail, the chain panel
// and the find bar.
// Selecting a call keeps the tab and moves it to the call. The view model and the first token
// window come from the server page; the views fetch the rest.
import { useCallback, useEffect, useMemo } from "react";
import { useRouter } from "next/navigation";
import { type RolloutView, API, apiUrl } from "@/lib/schema";
import { plural } from "@/lib/text";
import {
  rolloutSeverity,
  sequenceTraining,
  callTokensPatch,
  INSPECTOR_TABS,
  messageOf,
  positionOf,
  selectedCallOf,
  sequenceOf,
  shadeOf,
  tabOf,
  type InspectorTab,
} from "@/lib/view";
import { useUrlState } from "@/components/shared/url-state";
import { CallTimeline } from "./call-timeline";
import { CallDetailPane } from "./call-detail-pane";
import { ChainPanel } from "./chain-panel";
import { ConversationView } from "./conversation-view";
import { FindBar } from "./find-bar";
import { NoChainNotice } from "./no-chain-notice";
import { TokenView } from "./token-view";
import { useCallSelect } from "./use-call-select";
import { useFind } from "./use-find";
import { useRolloutFacts } from "./rollout-facts";
import { short } from "./labels";
import { TokenSeedContext, type TokenWindowSeed } from "./use-token-windows";
import { rolloutAsk } from "./rollout-api";
import { fetchRoute } from "@/components/shared/api";

const TAB_LABELS: Record<InspectorTab, string> = {
  tokens: "Tokens",
  conversation: "Conversation",
  call: "Call detail",
  chains: "Why this chain",
};

export function RolloutInspector({ seed }: { seed: TokenWindowSeed | null }) {
  const { view } = useRolloutFacts();
  const [params, set] = useUrlState();
  useLiveStamp(view);
  const profile = params.get("profile");
  const ask = useMemo(
    () =>
      rolloutAsk({ run_id: view.run_id, rollout_id: view.rollout_id, stamp: view.stamp }, profile),
    [view.run_id, view.rollout_id, view.stamp, profile],
  );
  // `?call=2` is the timeline's call 2 (the banner's words); the URL then holds its id.
  const askedCall = params.get("call");
  const selected = selectedCallOf(view, askedCall);
  useEffect(() => {
    if (askedCall !== null && selected !== null && selected !== askedCall) set({ call: selected });
  }, [askedCall, selected, set]);
  const tab = tabOf(params.get("tab"));
  const sequence = sequenceOf(view, params.get("chain"));
  const verdict = useMemo(() => rolloutSeverity(view), [view]);
  const severity = verdict.severity;
  const callById = useMemo(
    () => new Map(view.calls.map((c) => [c.model_call_id, c])),
    [view.calls],
  );
  // One rule for "trained" in every view of this sequence: headers, info line, legend, colours.
  const training = useMemo(
    () => sequenceTraining(severity, sequence, callById),
    [severity, sequence, callById],
  );
  const trainingOf = useCallback(
    (call: string) => sequenceTraining(severity, sequence, callById, call),
    [severity, sequence, callById],
  );
  const sequences = useMemo(() => {
    const out = view.chains.map((c) => ({
      value: c.chain_id,
      label: `${c.chain_id} (${plural(c.call_ids.length, "call")})`,
    }));
    const alone = [selected, sequence.startsWith("call:") ? sequence.slice(5) : null];
    for (const id of new Set(alone)) {
      if (id !== null && callById.has(id))
        out.push({ value: `call:${id}`, label: `call ${short(id)} alone` });
    }
    return out;
  }, [view.chains, selected, sequence, callById]);
  const openTokens = (chain: string) => set({ tab: "tokens", chain, pos: null });
  const selectCall = useCallSelect(view, ask, set, tab === "conversation" ? selected : null);
  // No chain: the token tab says why; a call alone (the default, or picked) shows below it.
  const alone = sequence.startsWith("call:") && callById.has(sequence.slice(5));
  const hasSequence = view.chains.length > 0 || alone;
  const pos = positionOf(params.get("pos"));
  const find = useFind({
    ask,
    sequence,
    query: params.get("find"),
    pos,
    tab,
    set,
    enabled: hasSequence,
  });
  const noChain = view.chains.length === 0 && (
    <NoChainNotice
      reasons={verdict.reasons}
      captured={view.calls.length}
      tokenFile={view.read.token_file}
      error={view.verdict.error}
      shown={alone ? sequence.slice(5) : null}
      firstCall={view.calls[0]?.model_call_id ?? null}
      onShowCall={(id) => set({ chain: `call:${id}`, pos: null })}
    />
  );

  return (
    <div className="inspector">
      <div className="inspector-left">
        <CallsHeading view={view} />
        {view.calls.length + view.failed.length + view.dangling_intents.length === 0 ? (
          <div className="card empty">No calls were captured for this rollout.</div>
        ) : (
          <CallTimeline
            calls={view.calls}
            failed={view.failed}
            intents={view.dangling_intents}
            selectedCallId={selected}
            onSelect={selectCall}
          />
        )}
      </div>
      <div className="inspector-right">
        <div className="inspector-tabs">
          <nav className="tabs" role="tablist">
            {INSPECTOR_TABS.map((t) => (
              <button
                key={t}
                role="tab"
                aria-selected={tab === t}
                className={tab === t ? "on" : ""}
                onClick={() => set({ tab: t })}
                data-testid={`tab-${t}`}
              >
                {TAB_LABELS[t]}
              </button>
            ))}
          </nav>
          {hasSequence && <FindBar {...find} />}
        </div>
        {tab === "tokens" && noChain}
        {tab === "tokens" && hasSequence && (
          <TokenSeedContext.Provider value={seed}>
            <TokenView
              ask={ask}
              sequence={sequence}
              sequences={sequences}
              training={training}
              trainingOf={trainingOf}
              pos={pos}
              found={find.state.current}
              call={selected}
              low={params.get("low")}
              onPatch={set}
            />
          </TokenSeedContext.Provider>
        )}
        {/* Nothing to converse over without a chain or a call (no token records): say why, as
            the token tab does, rather than ask for a sequence the routes would answer 404. */}
        {tab === "conversation" && !hasSequence && noChain}
        {tab === "conversation" && hasSequence && (
          <ConversationView
            ask={ask}
            sequence={sequence}
            sequences={sequences}
            message={messageOf(params.get("message"))}
            shade={shadeOf(params.get("shade"))}
            training={training}
            onPatch={set}
          />
        )}
        {tab === "call" && (
          <div className="inspector-pane">
            <CallTab
              view={view}
              selected={selected}
              onShowTokens={(id) => set(callTokensPatch(view, id))}
            />
          </div>
        )}
        {tab === "chains" && (
          <div className="inspector-pane">
            <ChainPanel
              view={view}
              onOpenChain={openTokens}
              onSelectCall={(id) => set({ call: id, tab: "call", pos: null, message: null })}
            />
          </div>
        )}
      </div>
    </div>
  );
}

function CallsHeading({ view }: { view: RolloutView }) {
  const notes = [`${view.calls.length} captured`];
  if (view.failed.length > 0) notes.push(`${view.failed.length} without a token entry`);
  const intents = view.dangling_intents.length;
  if (intents > 0) notes.push(`${intents} dangling intent${intents === 1 ? "" : "s"}`);
  return (
    <h2>
      Calls <span className="muted small">{notes.join(", ")}</span>
    </h2>
  );
}

/** The selected call's detail; a dangling intent has no entry and no exchange to show. */
function CallTab({
  view,
  selected,
  onShowTokens,
}: {
  view: RolloutView;
  selected: string | null;
  onShowTokens: (callId: string) => void;
}) {
  if (selected === null) return <p className="muted">Select a call in the timeline.</p>;
  const call = view.calls.find((c) => c.model_call_id === selected) ?? null;
  const failed = view.failed.some((f) => f.model_call_id === selected);
  const intent = view.dangling_intents.find((i) => i.model_call_id === selected);
  if (!call && !failed && intent) {
    return (
      <div className="card" data-testid="intent-detail">
        <h3 className="mono">{selected}</h3>
        <p>
          Dangling intent: the call was dispatched (its id is in the intents file) but no token
          entry and no captured exchange exist
          {intent.after_call ? (
            <>
              ; it came after <span className="mono">{short(intent.after_call)}</span>
            </>
          ) : null}
          .
        </p>
      </div>
    );
  }
  return (
    <CallDetailPane
      key={selected}
      at={{ run: view.run_id, rollout: view.rollout_id }}
      callId={selected}
      call={call}
      onShowTokens={() => onShowTokens(selected)}
    />
  );
}

/** A rollout still being written: poll its file stamp every 5 s and re-render when it changes. */
function useLiveStamp(view: RolloutView) {
  const router = useRouter();
  useEffect(() => {
    const url = apiUrl(API.rolloutStamp, { run: view.run_id, rollout: view.rollout_id });
    const ctl = new AbortController();
    const timer = setInterval(() => {
      fetchRoute(API.rolloutStamp, url, ctl.signal).then(
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
