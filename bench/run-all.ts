// `npm run bench`: every benchmark in turn. Each prints its absolute times with the cache state
// and PASS/FAIL per figure against its target; the run ends with a summary and exits non-zero when
// any figure missed (or a benchmark crashed). Large stores are generated once under
// bench/out/large (`npm run fixtures -- --large` writes the same files). `--only <name>[,<name>]`
// runs the named benchmarks alone (`npm run bench -- --only scale`), with the same summary.
import { benchBuilder } from "./builder.bench";
import { benchInspector } from "./inspector.bench";
import { benchDiff } from "./diff.bench";
import { benchTokenView } from "./token-view.bench";
import { benchIndex } from "./index.bench";
import { benchLoad } from "./load.bench";
import { benchHostileLoad } from "./hostile-load.bench";
import { benchCompare } from "./compare.bench";
import { benchCompareSeeds } from "./compare-seeds.bench";
import { benchScale } from "./scale.bench";
import { benchSearch } from "./search.bench";
import { benchHotspots } from "./hotspots.bench";
import { benchTokenEntry } from "./token-entry.bench";
import { crashed, summarise } from "./util";

const BENCHES: Array<[string, () => Promise<void>]> = [
  ["builder", benchBuilder],
  ["rollout route", benchInspector],
  ["diff route", benchDiff],
  ["token view", benchTokenView],
  ["index", benchIndex],
  ["load", benchLoad],
  ["hostile trainer files under load", benchHostileLoad],
  ["compare calibration", benchCompare],
  ["compare seed groups", benchCompareSeeds],
  ["scale", benchScale],
  ["text search", benchSearch],
  ["mismatch hotspots", benchHotspots],
  ["token entry check", benchTokenEntry],
];

/** The benchmarks `--only` names (every one without it); an unknown name is an error, not a no-op. */
function selected(): Array<[string, () => Promise<void>]> {
  const at = process.argv.indexOf("--only");
  if (at < 0) return BENCHES;
  const names = (process.argv[at + 1] ?? "").split(",").filter((n) => n.length > 0);
  const unknown = names.filter((n) => !BENCHES.some(([name]) => name === n));
  if (names.length === 0 || unknown.length > 0)
    throw new Error(
      `--only ${names.join(",")}: unknown benchmark (${BENCHES.map(([n]) => n).join(", ")})`,
    );
  return BENCHES.filter(([name]) => names.includes(name));
}

for (const [name, bench] of selected()) {
  console.log(`\n=== ${name}`);
  try {
    await bench();
  } catch (e) {
    crashed(`${name} bench`, e);
  }
}
summarise();
