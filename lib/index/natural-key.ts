// Rollout ids as keys whose plain (binary) order is the table's natural order ("2-0" before
// "10-0"; compareIds in lib/store/rollout-id), so the summary index's database sorts and pages by an
// index instead of comparing ids in JavaScript. Not responsible for the tie-break of ids that
// differ only in case or leading zeros: callers order by `tieKey` after it.

/** Punctuation in the order ICU's root collation (localeCompare's) gives it, before digits. */
const PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
const DASH = String.fromCharCode(0x20 + PUNCTUATION.indexOf("-"));

/** Gym's ids (`task-rollout`, `-aN` attempts): the common case, keyed without a character loop. */
const GYM_ID = /^([1-9]\d*|0)-([1-9]\d*|0)$/;
const digitRun = (d: string) => `\u0002${String.fromCharCode(0x20 + d.length)}${d}`;

/** The natural-order key of `id`: digit runs by length then value, letters case-folded. */
export function naturalKey(id: string): string {
  const gym = GYM_ID.exec(id);
  if (gym) return `${digitRun(gym[1] as string)}\u0001${DASH}${digitRun(gym[2] as string)}`;
  let out = "";
  let i = 0;
  while (i < id.length) {
    const c = id[i] as string;
    if (c >= "0" && c <= "9") {
      let j = i;
      while (j < id.length && (id[j] as string) >= "0" && (id[j] as string) <= "9") j++;
      const digits = id.slice(i, j).replace(/^0+(?=\d)/, "");
      out += digitRun(digits);
      i = j;
      continue;
    }
    const p = PUNCTUATION.indexOf(c);
    if (p >= 0) out += `\u0001${String.fromCharCode(0x20 + p)}`;
    else if (c.toLowerCase() !== c.toUpperCase()) out += `\u0003${c.toLowerCase()}`;
    else out += `\u0004${c}`;
    i++;
  }
  return out;
}

/** Ties of the natural key: lower case before upper case, as localeCompare orders them. */
export function tieKey(id: string): string {
  if (!/[^\d\-_.]/.test(id)) return id; // no letters: nothing to swap
  let out = "";
  for (const c of id) {
    const lower = c.toLowerCase();
    out += c === lower ? c.toUpperCase() : lower;
  }
  return out;
}
