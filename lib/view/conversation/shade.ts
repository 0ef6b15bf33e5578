// Probability shading of a message's spans in the conversation view: each span (one token, as the
// route's `shade=1` pages give them) takes the bin of its token's log prob, read from a token
// window over the message; a re-fed span stays re-fed. Pure; the bins are ./page's.
import type { MaskSpan } from "@/lib/schema";
import { probabilityBin } from "./page";

export interface ShadedSpan {
  text: string;
  mask: 0 | 1;
  /** Probability bin (0 = most probable); -1 for re-fed text or a token with no log prob known. */
  bin: number;
  logProb: number | null;
}

/** The token route's columns this needs: log probs from position `offset` on. */
export interface LogProbWindow {
  offset: number;
  tokens: { log_prob: ReadonlyArray<number | null> };
}

/** The most tokens one window request may ask for (the tokens route's limit). */
export const SHADE_WINDOW = 5000;

/** The token window to ask for: the message's range from its start, at most SHADE_WINDOW long. */
export function shadeWindow(start: number, end: number): { offset: number; limit: number } {
  return { offset: start, limit: Math.max(1, Math.min(end - start, SHADE_WINDOW)) };
}

/** Each span with its shade: generated spans by their token's log prob, re-fed spans none. */
export function shadeSpans(spans: readonly MaskSpan[], window: LogProbWindow | null): ShadedSpan[] {
  return spans.map((s) => {
    const k = window ? s.start - window.offset : -1;
    const lp = window && k >= 0 ? (window.tokens.log_prob[k] ?? null) : null;
    const logProb = s.mask === 1 && s.end - s.start === 1 ? lp : null;
    return {
      text: s.text,
      mask: s.mask,
      bin: s.mask === 1 ? probabilityBin(logProb) : -1,
      logProb,
    };
  });
}
