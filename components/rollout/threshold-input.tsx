"use client";
// The low-probability threshold box. It keeps what is being typed ("-", "-1.") as a draft and puts
// only a complete log prob (a number ≤ 0) in the URL, so typing never switches the filter off.
import { LiveInput } from "@/components/shared/live-controls";
import { useState } from "react";

export function ThresholdInput({
  low,
  onCommit,
}: {
  low: string | null;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState(low ?? "-2.3");
  const [seen, setSeen] = useState(low);
  // The URL changed from elsewhere (the toggle, back/forward): show it, unless the draft means it.
  if (low !== seen) {
    setSeen(low);
    if (low !== null && Number(low) !== Number(draft)) setDraft(low);
  }
  const valid = (t: string) => t.trim() !== "" && Number.isFinite(Number(t)) && Number(t) <= 0;
  return (
    <LiveInput
      className="num"
      type="text"
      inputMode="decimal"
      value={draft}
      disabled={low === null}
      aria-invalid={!valid(draft)}
      aria-label="log-prob threshold"
      onChange={(e) => {
        setDraft(e.target.value);
        if (valid(e.target.value)) onCommit(e.target.value);
      }}
      data-testid="low-threshold"
    />
  );
}
