// Words and badge tones for the inspector's roles, links and statuses (pure, shared by views).
import type { CallView } from "@/lib/schema";

export function roleLabel(c: CallView): { text: string; tone: "ok" | "bad" | "warn" | "" } {
  switch (c.role) {
    case "main":
      return { text: "main", tone: "ok" };
    case "branch":
      return { text: c.chains.join(", ") || "branch", tone: "" };
    case "side_call":
      return { text: "side call", tone: "warn" };
    case "quarantined":
      return {
        text: c.quarantine === "retry_dropped" ? "retry dropped" : "quarantined: ambiguous parent",
        tone: "bad",
      };
    case "excluded":
      return { text: "excluded", tone: "warn" };
    default:
      return { text: "not in a chain", tone: "warn" };
  }
}

export function sideReason(c: CallView): string | null {
  const r = c.side_call;
  if (!r) return null;
  return r.kind === "pattern"
    ? `requested model matches "${r.pattern}"`
    : `self-calibration: ${r.policy_model} generated more (${r.policy_generated_tokens} tokens)`;
}

export function linkLabel(c: CallView): string | null {
  if (c.link === null) return null;
  const base = {
    root: "root",
    recorded: "recorded parent",
    inferred: "prefix",
    ambiguous: "ambiguous prefix",
  }[c.link];
  return c.fallback
    ? `${base} (${c.fallback === "parent_digest_mismatch" ? "stale digest" : "recorded parent missing"})`
    : base;
}

export const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);
export const fmtInt = (n: number) => n.toLocaleString("en-US");
