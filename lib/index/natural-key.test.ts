// The natural key orders ids as the table's natural order (localeCompare, numeric) does.
import { describe, expect, it } from "vitest";
import { naturalKey, tieKey } from "./natural-key";

const natural = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
const byKey = (a: string, b: string) => {
  const ka = naturalKey(a),
    kb = naturalKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  const ta = tieKey(a),
    tb = tieKey(b);
  return ta === tb ? 0 : ta < tb ? -1 : 1;
};

describe("naturalKey", () => {
  it("orders ids as localeCompare with numeric collation does", () => {
    const ids = ["10-0", "2-0", "2-10", "2-9", "a", "a 1", "a_1", "a-1", "a.1", "a/1", "a1"];
    const more = ["A1", "b", "step3", "Step3", "x-a1", "x-a2", "x-a10", "1", "2", "10", "z9"];
    const all = [...ids, ...more];
    expect([...all].sort(byKey)).toEqual([...all].sort(natural));
  });

  it("agrees with localeCompare on generated rollout ids", () => {
    const ids: string[] = [];
    for (let t = 0; t < 40; t++)
      for (let r = 0; r < 12; r += 5) ids.push(`${t * 7}-${r}`, `${t}-${r}-a${r % 3}`);
    expect([...ids].sort(byKey)).toEqual([...ids].sort(natural));
  });
});
