// A search box's text as a query over the rollouts' text: plain words must all occur, a "quoted
// phrase" occurs as written, `kind:generated|input|error` restricts where, and every other
// character is literal, so no text a user types fails as syntax. Matching ignores case. The FTS5
// expression it gives only narrows the candidates (trigrams, each quoted): ./match checks them.
// Pure; not responsible for running it (./sql).
import type { TextKind } from "@/lib/schema";

export interface TextQuery {
  /** What must occur, lower-cased; empty when only `kind:` was typed (text of that kind exists). */
  needles: string[];
  /** Where it must occur (null: anywhere). */
  kinds: TextKind[] | null;
  /** The FTS5 MATCH expression narrowing the candidates; null when no needle has 3 characters. */
  fts: string | null;
  /** `kind:` words naming no kind (`kind:tools`): looked for as text, and the box says so. */
  unknownKinds: string[];
}

const KIND_WORDS: Record<string, TextKind> = {
  generated: "g",
  generation: "g",
  input: "i",
  tool: "i",
  user: "i",
  error: "e",
};

/** Trigrams in one query: more narrow little further, and each costs a lookup. */
const MAX_TRIGRAMS = 48;

/** The query, or null when it holds nothing to look for. */
export function parseTextQuery(raw: string): TextQuery | null {
  // Control characters are never in a query (the index separates segments with one).
  const text = raw.replace(/[\u0000-\u001f\u007f]/g, " ");
  const needles: string[] = [];
  const kinds = new Set<TextKind>();
  const unknownKinds: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i] as string)) {
      i++;
      continue;
    }
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      const phrase = text.slice(i + 1, end < 0 ? text.length : end);
      if (phrase.trim() !== "") needles.push(phrase);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    let end = i;
    while (end < text.length && !/\s/.test(text[end] as string)) end++;
    const word = text.slice(i, end);
    i = end;
    const kind = /^kind:(.+)$/i.exec(word)?.[1]?.toLowerCase();
    if (kind !== undefined && KIND_WORDS[kind]) kinds.add(KIND_WORDS[kind]);
    else needles.push(word);
    if (kind !== undefined && !KIND_WORDS[kind]) unknownKinds.push(word);
  }
  const lowered = [...new Set(needles.map((n) => n.toLowerCase()))];
  const where = kinds.size ? [...kinds].sort() : null;
  if (lowered.length === 0)
    return where ? { needles: [], kinds: where, fts: null, unknownKinds } : null;
  return { needles: lowered, kinds: where, fts: ftsOf(lowered), unknownKinds };
}

/** Every needle's trigrams (by code point, as FTS5's trigram tokenizer counts), each quoted, ANDed. */
function ftsOf(needles: readonly string[]): string | null {
  const grams = new Set<string>();
  for (const n of needles) {
    const cps = [...n];
    for (let k = 0; k + 3 <= cps.length && grams.size < MAX_TRIGRAMS; k++)
      grams.add(cps.slice(k, k + 3).join(""));
  }
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
}
