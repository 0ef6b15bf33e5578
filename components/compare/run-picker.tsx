// Pick the runs to compare: a GET form, so the choice is a link like any other view. Each side is
// a list box that takes several runs (seeds); a run with a seed_group chosen alone stands for its
// whole group. The page turns the form's repeated `a=` into `a=r1,r2`.
import type { Comparison, RunRef } from "@/lib/schema";

const HINT = "pick-seeds-hint";

function SideSelect({ name, runs, chosen }: { name: "a" | "b"; runs: RunRef[]; chosen: string[] }) {
  return (
    <label className="side-pick">
      {name}{" "}
      <select
        name={name}
        multiple
        size={Math.min(5, runs.length)}
        defaultValue={chosen}
        aria-describedby={HINT}
        data-testid={`pick-${name}`}
      >
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.id}
            {r.seed_group ? ` (seed group ${r.seed_group})` : ""}
          </option>
        ))}
      </select>
    </label>
  );
}

export function RunPicker({
  runs,
  sides,
  baseline,
}: {
  runs: RunRef[];
  sides: Comparison["sides"];
  baseline: string | null;
}) {
  // A seed-group side is chosen by its lead alone: the group comes back with it.
  const chosen = (k: "a" | "b") =>
    sides[k].from === "list"
      ? sides[k].runs.map((r) => r.id)
      : sides[k].runs.slice(0, 1).map((r) => r.id);
  return (
    <form action="/compare" method="get" className="picker" data-testid="run-picker">
      <SideSelect name="a" runs={runs} chosen={chosen("a")} />{" "}
      <SideSelect name="b" runs={runs} chosen={chosen("b")} />{" "}
      <label>
        floor{" "}
        <select name="baseline" defaultValue={baseline ?? ""} data-testid="pick-baseline">
          <option value="">auto (seed_repeat_of, else a side&apos;s own seeds)</option>
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.id}
            </option>
          ))}
        </select>
      </label>{" "}
      <span id={HINT} className="muted">
        Ctrl- or ⌘-click to choose several runs (seeds) for a side
      </span>{" "}
      <button type="submit" className="button" data-testid="pick-submit">
        compare
      </button>
    </form>
  );
}
