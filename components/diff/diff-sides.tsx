// The two sides of a diff, plainly: each rollout's verdict (the severity model's class and
// sentences), reward, GRPO advantage and size, linking to the inspector; then where the chains
// first differ, the text before and after that token on each side. No state, no fetching.
import Link from "next/link";
import type { DiffSide, RolloutDiff } from "@/lib/schema";
import { SEVERITY_CLASS, SEVERITY_LABEL } from "@/lib/severity";
import { loggedDiffers } from "@/lib/runs/pure";
import { signed } from "@/lib/view";
import { ROLLOUTS_ANCHOR } from "@/components/run/alerts";
import { ruleWords } from "@/components/run/groups-logged";
import { CodeSpans } from "@/components/shared/code-spans";
import styles from "./diff.module.css";

const rolloutHref = (s: DiffSide, query: string) =>
  `/runs/${encodeURIComponent(s.run)}/rollouts/${encodeURIComponent(s.rollout)}${query}`;

function SideCard({ name, side }: { name: "a" | "b"; side: DiffSide }) {
  return (
    <section className={`card ${styles.side}`} data-testid={`diff-side-${name}`}>
      <h2>
        {name}:{" "}
        <Link href={rolloutHref(side, "")} data-testid={`diff-side-${name}-link`}>
          {side.run} / {side.rollout}
        </Link>{" "}
        <span className={`badge ${SEVERITY_CLASS[side.severity]}`} data-testid="diff-verdict">
          {SEVERITY_LABEL[side.severity]}
        </span>
      </h2>
      {side.verdict.map((s) => (
        <p key={s} className="small" data-testid="diff-verdict-sentence">
          <CodeSpans text={s} />
        </p>
      ))}
      <dl className="facts">
        <dt>reward</dt>
        <dd data-testid="diff-reward">{side.reward ?? "—"}</dd>
        <dt>advantage</dt>
        <dd
          data-testid="diff-advantage"
          title="GRPO advantage in its group from the rewards, as the run's groups give it under this rule"
        >
          {side.group?.size === 1 ? (
            <span className="muted" data-testid="diff-advantage-alone">
              — (alone in task {String(side.group.key)}, step {side.group.step ?? "—"}: no group to
              compare its reward with)
            </span>
          ) : side.advantage === null ? (
            "—"
          ) : (
            signed(side.advantage)
          )}
          {side.group && side.group.size > 1 && (
            <span className="muted">
              {" "}
              (task {String(side.group.key)}, step {side.group.step ?? "—"};{" "}
              {ruleWords(side.advantage_rule)})
            </span>
          )}
        </dd>
        {side.logged_advantage !== null && (
          <>
            <dt>logged advantage</dt>
            <dd
              data-testid="diff-logged-advantage"
              title="The advantage the trainer logged for this rollout's sample (its step file's advantages)"
            >
              {signed(side.logged_advantage)}
              {loggedDiffers(side.advantage, side.logged_advantage) && (
                <span className="warn-text">
                  {" "}
                  (not this rule&apos;s:{" "}
                  <Link
                    href={`/runs/${encodeURIComponent(side.run)}?group=_ng_task_index#${ROLLOUTS_ANCHOR}`}
                    data-testid="diff-logged-groups"
                  >
                    the run&apos;s groups
                  </Link>{" "}
                  say which rule gives it)
                </span>
              )}
            </dd>
          </>
        )}
        <dt>chain</dt>
        <dd>
          {side.length.toLocaleString("en")} tokens, {side.messages} messages
        </dd>
        <dt>profile</dt>
        <dd>
          {side.profile} · {side.tokenizer ?? "no tokenizer (ids shown)"}
        </dd>
      </dl>
    </section>
  );
}

export function DiffSides({ d }: { d: RolloutDiff }) {
  return (
    <div className={styles.sides}>
      <SideCard name="a" side={d.a} />
      <SideCard name="b" side={d.b} />
    </div>
  );
}

export function FirstDivergence({ d }: { d: RolloutDiff }) {
  const f = d.first_divergence;
  if (!f)
    return (
      <p className="card" data-testid="diff-identical">
        The two {d.chain} chains are identical, token for token.
      </p>
    );
  const at = `?tab=tokens&chain=${encodeURIComponent(d.chain)}&pos=${f.position}`;
  return (
    <section className={`card ${styles.divergence}`} data-testid="diff-first-divergence">
      <p className={styles.lead}>
        The {d.chain} chains first differ at token{" "}
        <strong data-testid="diff-position">{f.position.toLocaleString("en")}</strong>
        {f.position === Math.min(d.a.length, d.b.length) && " (one chain is a prefix of the other)"}
        . Open it in the inspector: <Link href={rolloutHref(d.a, at)}>a</Link>,{" "}
        <Link href={rolloutHref(d.b, at)}>b</Link>.
      </p>
      <div className={styles.context}>
        {(["a", "b"] as const).map((k) => [
          <strong key={`${k}-name`}>{k}</strong>,
          <pre key={`${k}-text`} data-testid={`diff-context-${k}`}>
            <span className={styles.before}>{f[k].before}</span>
            <span data-testid={`diff-after-${k}`}>
              <span className={styles.token} title={`token ${f.position}`}>
                {f[k].token}
              </span>
              {f[k].after}
            </span>
          </pre>,
        ])}
      </div>
    </section>
  );
}
