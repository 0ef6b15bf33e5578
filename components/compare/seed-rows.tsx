// The seed-group rows of the compare statistics: each side's seeds with their means over the
// shared steps and the spread between them, which Welch's t is tested against (lib/compare/seed-groups).
import type { CalibratedVerdict, ComparisonSide } from "@/lib/schema";

type Seeds = NonNullable<CalibratedVerdict["seeds"]>;

function SideRow({ name, side, s }: { name: "a" | "b"; side: ComparisonSide; s: Seeds["a"] }) {
  return (
    <tr>
      <th>
        {name}: {s.n} seeds of {side.label} (each run&apos;s mean ± its block-bootstrap error)
      </th>
      <td data-testid={`seed-side-${name}`}>
        {s.runs.map((r) => `${r.id} ${r.mean.toFixed(3)} ± ${r.se.toFixed(3)}`).join("; ")}; mean{" "}
        {s.mean.toFixed(3)}, sd between seeds {s.sd.toFixed(3)}
        {s.floored ? ` (raised to the runs' own error, ${Math.sqrt(s.variance).toFixed(3)})` : ""}
      </td>
    </tr>
  );
}

export function SeedRows({
  seeds,
  sides,
}: {
  seeds: Seeds;
  sides: { a: ComparisonSide; b: ComparisonSide };
}) {
  return (
    <>
      <SideRow name="a" side={sides.a} s={seeds.a} />
      <SideRow name="b" side={sides.b} s={seeds.b} />
    </>
  );
}
