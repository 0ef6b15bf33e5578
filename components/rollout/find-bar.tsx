"use client";
// The inspector's find bar: the query, "3 of 41" (or "no match", or why find cannot run), previous
// and next; Enter and Shift-Enter step, Escape closes. Closed, a button opens it (as Ctrl/⌘-F
// does). The state and the moves are ./use-find's.
import type { RefObject } from "react";
import { fmtInt } from "./labels";
import type { FindState } from "./use-find";

export interface FindBarProps {
  state: FindState;
  input: RefObject<HTMLInputElement | null>;
  change: (text: string) => void;
  step: (by: 1 | -1) => void;
  close: () => void;
  show: () => void;
}

const STEPS = [
  { by: -1, label: "Previous match (Shift+Enter)", mark: "↑", testid: "find-prev" },
  { by: 1, label: "Next match (Enter)", mark: "↓", testid: "find-next" },
] as const;

/** What the bar says about the matches. */
function countWords({ text, found, error, at }: FindState): string {
  if (text === "") return "";
  if (error !== null) return error;
  if (found === null) return "finding…";
  if (found.unavailable !== null) return found.unavailable;
  if (found.total === 0) return "no match";
  const listed = found.truncated ? ` (the first ${fmtInt(found.matches.length)} listed)` : "";
  if (at === null)
    return `${fmtInt(found.total)} ${found.total === 1 ? "match" : "matches"}${listed}`;
  return `${fmtInt(at + 1)} of ${fmtInt(found.total)}${listed}`;
}

export function FindBar({ state, input, change, step, close, show }: FindBarProps) {
  if (!state.open)
    return (
      <button
        type="button"
        className="find-open"
        onClick={show}
        title="Find text in this sequence (Ctrl+F or ⌘F)"
        data-testid="find-open"
      >
        Find
      </button>
    );
  const none = (state.found?.matches.length ?? 0) === 0;
  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <input
        ref={input}
        type="text"
        value={state.text}
        placeholder="Find in this sequence"
        aria-label="Find text in this sequence"
        autoFocus
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            e.preventDefault();
            close();
          }
        }}
        data-testid="find-input"
      />
      <span
        className={state.found?.unavailable ? "find-count warn-text" : "find-count muted"}
        aria-live="polite"
        data-testid="find-count"
      >
        {countWords(state)}
      </span>
      {STEPS.map(({ by, label, mark, testid }) => (
        <button
          key={testid}
          type="button"
          onClick={() => step(by)}
          disabled={none}
          aria-label={label}
          title={label}
          data-testid={testid}
        >
          {mark}
        </button>
      ))}
      <button
        type="button"
        onClick={close}
        aria-label="Close find (Escape)"
        title="Close find (Escape)"
        data-testid="find-close"
      >
        ×
      </button>
    </div>
  );
}
