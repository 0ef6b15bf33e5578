"use client";
// Generated tokens below a log-prob threshold, for the filter: a short list to jump from.
import { useEffect, useState } from "react";
import { type LowProbMatches, API } from "@/lib/schema";
import { fmtInt, short } from "./labels";
import { fetchRoute } from "@/components/shared/api";

export function LowProbList({ url, onPick }: { url: string; onPick: (pos: number) => void }) {
  const [state, setState] = useState<{ url: string; data?: LowProbMatches; error?: string } | null>(
    null,
  );
  useEffect(() => {
    const ctl = new AbortController();
    fetchRoute(API.lowProb, url, ctl.signal).then(
      (data) => setState({ url, data }),
      (err: unknown) =>
        !ctl.signal.aborted &&
        setState({ url, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => ctl.abort();
  }, [url]);
  if (state?.url !== url) return <div className="low-list muted">Searching…</div>;
  const d = state.data;
  if (!d) return <div className="error-box">{state.error}</div>;
  return (
    <div className="low-list" data-testid="low-list">
      <div className="muted" data-testid="low-count">
        {fmtInt(d.total)} generated tokens below {d.threshold}
        {d.total > d.matches.length ? ` (first ${d.matches.length} listed)` : ""}
      </div>
      <div className="low-items">
        {d.matches.map((m) => (
          <button
            key={m.pos}
            className="low-item"
            onClick={() => onPick(m.pos)}
            data-testid="low-item"
          >
            <span className="mono">{m.text === null ? m.id : JSON.stringify(m.text)}</span>{" "}
            <span className="muted">
              {m.log_prob.toFixed(2)} @{m.pos} {short(m.call)}
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}
