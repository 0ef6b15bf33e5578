// A sentence of the severity model's (lib/severity) with its `code` spans (ids, models, error
// types, locations) set in monospace; an odd count of backticks leaves the text as it is. The text
// between spans goes through `plain` (the inspector links its "call N" there).
import type { ReactNode } from "react";

export function CodeSpans({
  text,
  plain = (t) => t,
}: {
  text: string;
  plain?: (text: string, key: number) => ReactNode;
}) {
  const parts = text.split("`");
  if (parts.length % 2 === 0) return <>{plain(text, 0)}</>;
  return <>{parts.map((p, i) => (i % 2 === 1 ? <code key={i}>{p}</code> : plain(p, i)))}</>;
}
