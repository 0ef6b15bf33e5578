"use client";
// The token-level diff of one changed row, fetched when the row is opened (`/api/diff?…&message=K`):
// runs of tokens the same on both sides, only in a (struck through) and only in b, as text. A
// pair too long or too different for a bounded diff says where it first differs instead.
import { useEffect, useState } from "react";
import { API, type TokenDiffAnswer } from "@/lib/schema";
import { getApi } from "@/components/shared/api";
import styles from "./diff.module.css";

const OP_CLASS = { same: styles.same, removed: styles.removed, added: styles.added } as const;
const OP_TITLE = { same: "on both sides", removed: "only in a", added: "only in b" } as const;

/** Diffs already fetched, by pair and row: a row scrolled out and back (remounted) asks once. */
const fetched = new Map<string, TokenDiffAnswer>();

export function TokenDiff({ ask, row }: { ask: Record<string, string>; row: number }) {
  const key = `${new URLSearchParams(ask).toString()}#${row}`;
  const [got, setGot] = useState<{ key: string; diff?: TokenDiffAnswer; error?: string }>();
  const known = fetched.get(key);
  useEffect(() => {
    if (fetched.has(key)) return;
    const ctl = new AbortController();
    getApi(API.diff, undefined, { ...ask, message: row }, ctl.signal).then(
      (d) => {
        if (!d.token_diff) return;
        if (fetched.size > 50) fetched.clear();
        fetched.set(key, d.token_diff);
        setGot({ key, diff: d.token_diff });
      },
      (e: unknown) => !ctl.signal.aborted && setGot({ key, error: (e as Error).message }),
    );
    return () => ctl.abort();
  }, [ask, row, key]);
  const now = known ? { key, diff: known, error: undefined } : got?.key === key ? got : undefined;
  if (!now) return <p className="muted small">diffing the message&apos;s tokens…</p>;
  if (now.error)
    return (
      <p className="error-box" role="alert">
        Could not diff the message: {now.error}
      </p>
    );
  const diff = now.diff as TokenDiffAnswer;
  if (!diff.ops)
    return (
      <p className="muted small" data-testid="diff-token-note">
        {diff.note}
      </p>
    );
  return (
    <pre className={styles.ops} data-testid="diff-tokens">
      {diff.ops.map((op, i) => (
        <span
          key={i}
          className={OP_CLASS[op.kind]}
          data-kind={op.kind}
          data-testid="diff-op"
          title={`${OP_TITLE[op.kind]}: ${op.length} tokens from ${op.kind === "added" ? `b ${op.b}` : `a ${op.a}`}${op.clipped ? " (clipped)" : ""}`}
        >
          {op.text}
        </span>
      ))}
    </pre>
  );
}
