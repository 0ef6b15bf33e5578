// The verdict at a glance: trained or masked, every reason in words, delivered fraction, profile,
// and whether the other builder profile would decide differently.
import Link from "next/link";
import type { RolloutView } from "@/lib/schema/api-rollout";
import { maskReasonWords } from "@/lib/view/mask-reasons";
import { verdictLabel } from "@/lib/view/verdict-label";

export function VerdictBar({ view, profileHref }: { view: RolloutView; profileHref: (p: string) => string }) {
  const v = view.verdict;
  const label = verdictLabel(v);
  const reasons = v.mask_reasons.map((r) => (r === "build_error" && v.error ? `build error: ${v.error}` : maskReasonWords(r)));
  return (
    <section className="card verdict-bar" data-testid="verdict-bar">
      <div className="verdict-main">
        <span className={`badge big ${label === "masked" ? "bad" : label === "trained" ? "ok" : "warn"}`} data-testid="verdict-label">
          {label === "masked" ? "masked" : label === "trained" ? "trained on" : label}
        </span>
        {reasons.length > 0 && (
          <ul className="reasons" data-testid="verdict-reasons">
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
        {v.error && !v.mask_reasons.includes("build_error") && <span className="mono muted" data-testid="verdict-error">{v.error}</span>}
      </div>
      <dl className="facts">
        <dt>delivered</dt>
        <dd data-testid="verdict-delivered">{view.delivered_fraction === null ? "—" : `${(view.delivered_fraction * 100).toFixed(1)}%`}</dd>
        <dt>profile</dt>
        <dd>
          {(["seed", "gym-v1"] as const).map((p) => (
            <Link key={p} href={profileHref(p)} className={`seg ${view.profile === p ? "on" : ""}`} data-testid={`profile-${p}`} scroll={false}>
              {p}
            </Link>
          ))}
        </dd>
        {view.record && (
          <>
            <dt>reward</dt>
            <dd data-testid="verdict-reward">{view.record.reward ?? "—"}</dd>
            {view.record.step !== null && (
              <>
                <dt>step</dt>
                <dd>{view.record.step}</dd>
              </>
            )}
          </>
        )}
        <dt>tokens</dt>
        <dd>{view.tokenizer ?? (view.tokenizer_error ? <span className="bad-text">{view.tokenizer_error}</span> : "ids only (no tokenizer in run.json)")}</dd>
      </dl>
      {view.other_profile && (
        <p className={view.other_profile.differs ? "warn-text" : "muted"} data-testid="other-profile">
          {view.other_profile.differs ? "Profiles disagree: " : ""}
          {view.other_profile.summary}.
        </p>
      )}
      {(view.read.torn_tail || view.read.issues.length > 0 || view.read.capture_store.unreadable > 0 || view.read.capture_store.error) && (
        <ul className="issues" data-testid="read-issues">
          {view.read.torn_tail && <li>The token file ends in a torn line (a write in progress); it was ignored.</li>}
          {view.read.issues.slice(0, 5).map((i, k) => (
            <li key={k} className="mono">
              {i.file}
              {i.line !== null ? `: line ${i.line}` : ""}: {i.message}
            </li>
          ))}
          {view.read.capture_store.unreadable > 0 && <li>{view.read.capture_store.unreadable} unreadable lines in the model-call store.</li>}
          {view.read.capture_store.error && <li className="mono">{view.read.capture_store.error}</li>}
        </ul>
      )}
    </section>
  );
}
