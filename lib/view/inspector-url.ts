// The inspector's URL state read one way by the server page (which ships the first token window)
// and the client (which asks for the rest): the tab, the sequence (token and conversation tabs),
// the selected token position and the window holding it, the selected message and the shading.
// A sequence is `main`, another chain id, or `call:<model_call_id>`. The selected call is `call`.
import type { CallView } from "@/lib/schema/api-rollout";

export const INSPECTOR_TABS = ["tokens", "conversation", "call", "chains"] as const;
export type InspectorTab = (typeof INSPECTOR_TABS)[number];

/** The `tab` URL parameter; anything else is the token view. */
export function tabOf(param: string | null | undefined): InspectorTab {
  return INSPECTOR_TABS.find((t) => t === param) ?? "tokens";
}

/** Tokens per window the client asks for; windows start at multiples of it. */
export const TOKEN_WINDOW = 2000;

/** The `chain` URL parameter, else main, else the first call alone (a rollout with no chain). */
export function sequenceOf(
  view: { chains: readonly unknown[]; calls: ReadonlyArray<Pick<CallView, "model_call_id">> },
  chain: string | null,
): string {
  if (chain) return chain;
  if (view.chains.length > 0) return "main";
  const first = view.calls[0];
  return first ? `call:${first.model_call_id}` : "main";
}

/** The start of the window holding position `pos` (the first window without one). */
export function windowStart(pos: number | null): number {
  return pos === null || !Number.isInteger(pos) || pos < 0
    ? 0
    : Math.floor(pos / TOKEN_WINDOW) * TOKEN_WINDOW;
}

/** The `pos` URL parameter as a position, or null when it is not a non-negative integer. */
export function positionOf(param: string | null | undefined): number | null {
  return param !== null && param !== undefined && /^\d+$/.test(param) ? Number(param) : null;
}

/** The `message` URL parameter: the selected conversation item, a non-negative integer or null. */
export const messageOf = positionOf;

/** The `shade` URL parameter: probability shading in the conversation is on only for `1`. */
export function shadeOf(param: string | null | undefined): boolean {
  return param === "1";
}
