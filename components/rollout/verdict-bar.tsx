"use client";
// The verdict at a glance: the severity (trained, trained with warnings, masked) as a pill in its
// class colours and every reason as a sentence (the trainer's step files' among them, once read),
// then delivered fraction, profile, reward and whether the other builder profile decides otherwise.
// Words come from lib/severity. What is decided after the first paint (the other profile, the
// run's policy, the truth check) says so while it is.
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { rolloutSeverity } from "@/lib/view";
import { CodeSpans } from "@/components/shared/code-spans";
import { ProfileSwitch } from "./profile-switch";
import { useRolloutFacts, type FactsState } from "./rollout-facts";
import type { RolloutView } from "@/lib/schema";
import { plural } from "@/lib/text";
import {
  bannerSentences,
  SEVERITY_CLASS,
  SEVERITY_LABEL,
  SEVERITY_PALETTE,
  type SeverityResult,
} from "@/lib/severity";

const CHECKING_TRAINER =
  "Trained on by the capture's consumer; whether the trainer trained this sample as captured is " +
  "not yet known: its step files (train_data_step{N}.jsonl) are being checked.";

/** "call 2" in a sentence links to `?call=2` (the timeline's call 2), the other parameters kept. */
function CallLinks({ text }: { text: string }) {
  const params = useSearchParams();
  const parts = text.split(/\b(call \d+)\b/);
  if (parts.length === 1) return <>{text}</>;
  const href = (n: string) => {
    const q = new URLSearchParams(params.toString());
    q.set("call", n);
    q.delete("pos");
    q.delete("message");
    return `?${q.toString()}`;
  };
  return (
    <>
      {parts.map((p, i) =>
        i % 2 === 1 ? (
          <Link key={i} href={href(p.slice(5))} scroll={false} data-testid="verdict-call-link">
            {p}
          </Link>
        ) : (
          p
        ),
      )}
    </>
  );
}

/** A sentence with its `code` spans in monospace and its "call N" linked. */
function Sentence({ text }: { text: string }) {
  return <CodeSpans text={text} plain={(t, i) => <CallLinks key={i} text={t} />} />;
}

export function VerdictBar() {
  const facts = useRolloutFacts();
  const { view } = facts;
  const severity = useMemo(() => rolloutSeverity(view), [view]);
  // Trained with nothing against it, but the trainer's step files are still being read for this
  // rollout's sample: not yet known, never a green "trained" the check may take back.
  const checking = facts.trainerPending && severity.severity === "trained";
  const shown = checking ? "pending" : severity.severity;
  const cls = SEVERITY_CLASS[shown];
  const sentences = checking ? [CHECKING_TRAINER] : bannerSentences(severity);
  return (
    <section
      className="card verdict-bar"
      style={{ borderLeftColor: SEVERITY_PALETTE[shown].chart }}
      data-testid="verdict-bar"
      data-severity={shown}
    >
      <div className="verdict-main">
        <span
          className={`badge big ${cls}`}
          data-testid="verdict-label"
          title={severity.reasons.map((r) => r.title).join(" · ")}
        >
          {SEVERITY_LABEL[shown]}
        </span>
        <div className="verdict-sentences" data-testid="verdict-sentences">
          {sentences.map((s, i) => (
            <p key={i} className={i === 0 ? "verdict-text" : ""} data-testid="verdict-sentence">
              <Sentence text={s} />
            </p>
          ))}
        </div>
      </div>
      <Facts view={view} masked={severity.severity === "masked"} />
      <OtherProfile facts={facts} />
      <PolicyNote facts={facts} severity={severity} />
      <TrainerNote facts={facts} inBanner={checking} />
      <ReadIssues read={view.read} />
    </section>
  );
}

function OtherProfile({ facts }: { facts: FactsState }) {
  const other = facts.view.other_profile;
  if (other)
    return (
      <p className={other.differs ? "warn-text" : "muted"} data-testid="other-profile">
        {other.differs ? "Profiles disagree: " : ""}
        {other.summary}.
      </p>
    );
  return (
    <p className="muted small" data-testid="other-profile-pending">
      {facts.otherPending
        ? "Checking what the other builder profile decides…"
        : `What the other builder profile decides is not known: ${facts.error ?? "not checked"}.`}
    </p>
  );
}

/** Until the run's policy is known, a trained rollout's main-chain model cannot be judged. */
function PolicyNote({ facts, severity }: { facts: FactsState; severity: SeverityResult }) {
  if (facts.view.policy_model !== null || severity.severity === "masked") return null;
  if (!facts.policyPending && facts.error === null) return null;
  return (
    <p className="muted small" data-testid="policy-pending">
      {facts.policyPending
        ? "The run's policy model is not known yet (its summary index is still being built), "
        : "The run's policy model could not be read, "}
      so whether a model other than the policy is the main chain cannot be judged yet.
    </p>
  );
}

/**
 * While the truth check reads the run's step files, or when it failed: unless the banner already
 * says it is checking (`inBanner`, a rollout the build alone would call trained).
 */
function TrainerNote({ facts, inBanner }: { facts: FactsState; inBanner: boolean }) {
  if (!facts.trainerPending && facts.trainerError === null) return null;
  if (inBanner) return null;
  return (
    <p className="muted small" data-testid="trainer-pending">
      {facts.trainerPending
        ? "Checking the trainer's step files (train_data_step{N}.jsonl) for this rollout's trained sample…"
        : `The trainer's step files could not be checked against this rollout: ${facts.trainerError}.`}
    </p>
  );
}

function Facts({ view, masked }: { view: RolloutView; masked: boolean }) {
  return (
    <dl className="facts">
      <dt>delivered</dt>
      <dd data-testid="verdict-delivered">
        {view.delivered_fraction === null ? "—" : `${(view.delivered_fraction * 100).toFixed(1)}%`}
        <DeliveredOf view={view} masked={masked} />
      </dd>
      <dt>profile</dt>
      <dd>
        <ProfileSwitch current={view.profile} />{" "}
        <span className="muted small" data-testid="rollout-profile-reason">
          {view.profile_reason}
        </span>
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
      <dt>main model</dt>
      <dd className="mono" data-testid="verdict-main-model">
        {view.main_model ?? "—"}
      </dd>
      <dt>tokens</dt>
      <dd>
        {view.tokenizer ??
          (view.tokenizer_error ? (
            <span className="bad-text">{view.tokenizer_error}</span>
          ) : (
            <span data-testid="tokenizer-hint">
              ids only: no tokenizer. For text, serve with <code>--tokenizer NAME|PATH</code> (a
              bare capture directory) or set <code>tokenizer</code> in the run&apos;s run.json
            </span>
          ))}
      </dd>
    </dl>
  );
}

/**
 * What the delivered fraction is of: the generated tokens captured. A call the capture lost (a torn
 * last line, a call whose tokens were never written) is in no count, so "100%" is said beside it.
 * A masked rollout's main chain is delivered, yet none of it trains: said beside it too.
 */
function DeliveredOf({ view, masked }: { view: RolloutView; masked: boolean }) {
  const g = view.generated_tokens;
  if (view.delivered_fraction === null || g === null) return null;
  const lost = view.incomplete.lost_calls.length;
  const dangling = view.dangling_intents.length;
  // Calls the capture never wrote have no tokens to count: "100%" counts only what was written.
  const missing = [
    view.read.torn_tail ? "the torn last line's call" : null,
    lost > 0 ? plural(lost, "lost call") : null,
    dangling > 0
      ? plural(
          dangling,
          "call whose intent got no token entry",
          "calls whose intents got no token entry",
        )
      : null,
  ].filter((x) => x !== null);
  // Side calls' tokens are outside the share (Gym's metric): said, since they can be most of them.
  const sides = view.verdict.side_calls;
  const sideTokens = sides.reduce((a, c) => a + c.generated_tokens, 0);
  const outside =
    sides.length > 0
      ? `, not its ${sides.length === 1 ? "side call's" : `${sides.length} side calls'`} ${sideTokens.toLocaleString("en-US")}`
      : "";
  return (
    <span className="muted small" data-testid="verdict-delivered-of">
      {" "}
      of {g.captured.toLocaleString("en-US")} generated tokens captured{outside}
      {missing.length > 0 && `, not counting ${missing.join(" or ")}`}
      {masked && <span className="bad-text">; masked, so none of them is trained</span>}
    </span>
  );
}

/** Problems met reading the files (the torn tail is a warning in the banner already). */
function ReadIssues({ read }: { read: RolloutView["read"] }) {
  const store = read.capture_store;
  if (read.issues.length === 0 && store.unreadable === 0 && !store.error) return null;
  return (
    <ul className="issues" data-testid="read-issues">
      {read.issues.slice(0, 5).map((i, k) => (
        <li key={k} className="mono">
          {i.file}
          {i.line !== null ? `: line ${i.line}` : ""}: {i.message}
        </li>
      ))}
      {store.unreadable > 0 && (
        <li>{store.unreadable} unreadable lines in the model-call store.</li>
      )}
      {store.error && <li className="mono">{store.error}</li>}
    </ul>
  );
}
