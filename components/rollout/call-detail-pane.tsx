"use client";
// The selected call: its role and lengths, output items (reasoning, text, tool calls), exchanges
// (status, latency, error body) and prompt split into inherited prefix and interstitial.
// All model text is rendered as React text (escaped), never as HTML.
import { useEffect, useState } from "react";
import {
  type CallView,
  type CallDetail,
  type CallExchange,
  API,
  type RolloutParams,
} from "@/lib/schema";
import { NEW_INPUT_WORDS, outputItemText } from "@/lib/view";
import { fmtInt, linkLabel, roleLabel, sideReason } from "./labels";
import { getApi } from "@/components/shared/api";

export function CallDetailPane({
  at,
  callId,
  call,
  onShowTokens,
}: {
  at: RolloutParams;
  callId: string;
  call: CallView | null;
  onShowTokens: () => void;
}) {
  const [state, setState] = useState<{ id: string; detail?: CallDetail; error?: string } | null>(
    null,
  );
  const { run, rollout } = at;
  useEffect(() => {
    const ctl = new AbortController();
    getApi(API.callDetail, { run, rollout, call: callId }, undefined, ctl.signal).then(
      (detail) => setState({ id: callId, detail }),
      (err: unknown) =>
        !ctl.signal.aborted &&
        setState({ id: callId, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => ctl.abort();
  }, [run, rollout, callId]);
  const detail = state?.id === callId ? state.detail : undefined;
  const error = state?.id === callId ? state.error : undefined;
  return (
    <div data-testid="call-detail">
      <h3 className="mono">{callId}</h3>
      {call && <CallFacts c={call} onShowTokens={onShowTokens} />}
      {error && <div className="error-box">{error}</div>}
      {!detail && !error && <p className="muted">Loading…</p>}
      {detail && (
        <>
          {detail.exchanges.map((x) => (
            <Exchange key={x.line} x={x} />
          ))}
          {detail.exchanges.length === 0 && (
            <p className="muted">No model-call capture for this call.</p>
          )}
          {detail.output_items.length > 0 && <h4>Output items</h4>}
          {detail.output_items.map((item, k) => (
            <OutputItem key={k} item={item} />
          ))}
          {detail.prompt && (
            <>
              <h4>Prompt</h4>
              <div className="split-bar" title={`inherited prefix / ${NEW_INPUT_WORDS}`}>
                <span className="inherited" style={{ flexGrow: detail.prompt.inherited_len }} />
                <span
                  className="interstitial"
                  style={{ flexGrow: Math.max(detail.prompt.interstitial_len, 1) }}
                />
              </div>
              <p className="small" data-testid="prompt-split">
                {fmtInt(detail.prompt.inherited_len)} tokens inherited from the parent,{" "}
                {fmtInt(detail.prompt.interstitial_len)} {NEW_INPUT_WORDS} (re-fed, mask 0)
              </p>
              {detail.prompt.inherited_tail !== null && (
                <pre className="text-block muted">…{detail.prompt.inherited_tail}</pre>
              )}
              {detail.prompt.interstitial !== null && (
                <pre className="text-block" data-testid="interstitial-text">
                  {detail.prompt.interstitial}
                  {detail.prompt.interstitial_truncated ? "\n… (truncated)" : ""}
                </pre>
              )}
            </>
          )}
        </>
      )}
    </div>
  );
}

function CallFacts({ c, onShowTokens }: { c: CallView; onShowTokens: () => void }) {
  const role = roleLabel(c);
  return (
    <dl className="facts">
      <dt>role</dt>
      <dd>
        <span className={`badge ${role.tone}`}>{role.text}</span>{" "}
        {sideReason(c) ?? c.excluded_reason ?? ""}
      </dd>
      <dt>parent</dt>
      <dd className="mono">
        {c.parent_call_id ?? "—"} {linkLabel(c) && <span className="muted">({linkLabel(c)})</span>}
      </dd>
      <dt>models</dt>
      <dd>
        requested {c.requested_model ?? "—"}, served {c.model}
      </dd>
      <dt>tokens</dt>
      <dd>
        prompt {fmtInt(c.prompt_len)}, generated {fmtInt(c.generated_len)}{" "}
        <button className="linkish" onClick={onShowTokens} data-testid="show-call-tokens">
          view tokens
        </button>
      </dd>
      <dt>created</dt>
      <dd className="mono">{new Date(c.created_at * 1000).toISOString()}</dd>
    </dl>
  );
}

function Exchange({ x }: { x: CallExchange }) {
  const failed = x.status_code === null || x.status_code >= 400;
  return (
    <div className="card exchange" data-testid="exchange">
      <span className={`badge ${failed ? "bad" : "ok"}`}>HTTP {x.status_code ?? "?"}</span>{" "}
      {x.error_category ?? ""}{" "}
      <span className="muted">
        {x.latency_ms !== null ? `${x.latency_ms} ms` : ""} · capture line {x.line}
      </span>
      {x.error_body !== null && (
        <pre className="text-block" data-testid="error-body">
          {JSON.stringify(x.error_body, null, 2)}
        </pre>
      )}
    </div>
  );
}

function OutputItem({ item }: { item: Readonly<Record<string, unknown>> }) {
  const { type, text } = outputItemText(item);
  return (
    <div className="output-item" data-testid="output-item">
      <span className="badge">{type}</span>
      <pre className="text-block">{text}</pre>
    </div>
  );
}
