// One sequence of an inspected rollout as the diff reads it: every token id in order (the same
// positions as the token windows and the conversation) and each message's role and token range,
// from the conversation the inspector shows (./conversation), so both views split alike. Not
// responsible for comparing two of them (lib/diff) or for decoding text.
import type { RolloutModel } from "./model";
import { conversationOf, sequenceParts } from "./conversation";

export interface ChainMessage {
  role: string;
  /** The model call the message came in with. */
  call: string;
  start: number;
  end: number;
}

export interface ChainMessages {
  ids: Int32Array;
  messages: ChainMessage[];
}

const cache = new WeakMap<RolloutModel, Map<string, ChainMessages>>();

/** The sequence's ids and messages (`main`, a chain id or `call:<id>`), kept per model. */
export function chainMessages(model: RolloutModel, sequence: string): ChainMessages {
  let bySequence = cache.get(model);
  if (!bySequence) cache.set(model, (bySequence = new Map()));
  const hit = bySequence.get(sequence);
  if (hit) return hit;
  const parts = sequenceParts(model, sequence);
  let length = 0;
  for (const p of parts) length += p.ids.length;
  const ids = new Int32Array(length);
  let at = 0;
  for (const p of parts) {
    ids.set(p.ids, at);
    at += p.ids.length;
  }
  const messages: ChainMessage[] = [];
  for (const item of conversationOf(model, sequence).items) {
    if (item.kind !== "message") continue;
    // Without a chat template one token range can carry several body messages: one range, once.
    const last = messages[messages.length - 1];
    if (last && last.start === item.start && last.end === item.end) continue;
    messages.push({
      role: item.label || item.role,
      call: item.call,
      start: item.start,
      end: item.end,
    });
  }
  const out = { ids, messages };
  if (bySequence.size >= 4) bySequence.delete(bySequence.keys().next().value as string);
  bySequence.set(sequence, out);
  return out;
}
