// Pick the runs to compare (a GET form, so the choice is a link like any other view).
import type { RunRef } from "@/lib/schema";

export function RunPicker({
  runs,
  a,
  b,
  baseline,
}: {
  runs: RunRef[];
  a: string;
  b: string;
  baseline: string | null;
}) {
  const select = (name: string, value: string, optional = false) => (
    <select name={name} defaultValue={value} data-testid={`pick-${name}`}>
      {optional && <option value="">auto (seed_repeat_of)</option>}
      {runs.map((r) => (
        <option key={r.id} value={r.id}>
          {r.id}
        </option>
      ))}
    </select>
  );
  return (
    <form action="/compare" method="get" className="picker">
      a {select("a", a)} b {select("b", b)} floor {select("baseline", baseline ?? "", true)}{" "}
      <button type="submit" className="button" data-testid="pick-submit">
        compare
      </button>
    </form>
  );
}
