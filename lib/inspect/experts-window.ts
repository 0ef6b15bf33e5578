// Windows of a sequence's routed experts (docs/experts.md): per position, the row of the call that
// added the token (its prompt tail from `inherited`, its generation after its prompt), read from
// that call's typed array only for the window's positions. Null where the call has no routes, the
// route fell back (all −1) or the row is missing. Not responsible for decoding (lib/experts).
import type { ExpertsWindow } from "@/lib/schema";
import { routeRow } from "@/lib/experts";
import { TOKEN_WINDOW } from "@/lib/view";
import type { CallTokens, RolloutModel } from "./model";
import { parseCount, sequenceParts } from "./token-window";

/** A window of routes is [layer][k] per token: fewer tokens than a token window per request. */
const MAX_EXPERTS_WINDOW = 2000;

export function expertsWindow(
  model: RolloutModel,
  sequence: string,
  offsetParam: string | null,
  limitParam: string | null,
): ExpertsWindow {
  const parts = sequenceParts(model, sequence);
  const last = parts[parts.length - 1];
  const total = last ? last.start + last.ids.length : 0;
  const offset = parseCount(offsetParam, "offset", 0, Number.MAX_SAFE_INTEGER);
  const limit = parseCount(limitParam, "limit", TOKEN_WINDOW, MAX_EXPERTS_WINDOW);
  const end = Math.min(total, offset + limit);
  const out: ExpertsWindow = {
    sequence,
    total,
    offset,
    routed: parts.some((p) => (model.tokens[p.call] as CallTokens).routes !== null),
    layers: 0,
    topk: 0,
    experts: [],
    call: [],
    call_ids: [],
  };
  const slots = new Map<number, number>();
  for (const p of parts) {
    const pEnd = p.start + p.ids.length;
    if (pEnd <= offset || p.start >= end) continue;
    const t = model.tokens[p.call] as CallTokens;
    let slot = slots.get(p.call);
    if (slot === undefined) {
      slot = out.call_ids.length;
      slots.set(p.call, slot);
      out.call_ids.push(model.view.calls[p.call]?.model_call_id ?? "");
    }
    // The part's first token is this row of its call's prompt + generation.
    const firstRow = p.ids === t.gen ? t.inherited + t.own.length : t.inherited;
    const routes = t.routes;
    if (routes) {
      out.layers = Math.max(out.layers, routes.layers);
      out.topk = Math.max(out.topk, routes.topk);
    }
    for (let pos = Math.max(offset, p.start); pos < Math.min(end, pEnd); pos++) {
      out.experts.push(routes ? routeRow(routes, firstRow + pos - p.start) : null);
      out.call.push(slot);
    }
  }
  return out;
}
