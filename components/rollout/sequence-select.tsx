"use client";
// The sequence a view shows (the main chain, another chain, a single call): the token view's and
// the conversation's toolbar pick it the same way, and a new sequence clears what pointed into
// the old one (`clears`: a token position, a message).
import { LiveSelect } from "@/components/shared/live-controls";

export interface SequenceSelectProps {
  value: string;
  sequences: ReadonlyArray<{ value: string; label: string }>;
  /** The URL parameter that points into the sequence and is cleared with a new one. */
  clears: "pos" | "message";
  onPatch: (patch: Record<string, string | null>) => void;
  testId: string;
}

export function SequenceSelect({ value, sequences, clears, onPatch, testId }: SequenceSelectProps) {
  return (
    <label>
      sequence{" "}
      <LiveSelect
        value={value}
        onChange={(e) => onPatch({ chain: e.target.value, [clears]: null })}
        data-testid={testId}
      >
        {sequences.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </LiveSelect>
    </label>
  );
}
