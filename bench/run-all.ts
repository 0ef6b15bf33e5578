// `npm run bench`: every benchmark in turn. Each prints its absolute times with the cache state
// and PASS/FAIL per figure against its target; the run ends with a summary and exits non-zero when
// any figure missed (or a benchmark crashed). Large stores are generated once under
// bench/out/large (`npm run fixtures -- --large` writes the same files).
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
];

for (const [name, bench] of BENCHES) {
  console.log(`\n=== ${name}`);
  try {
    await bench();
  } catch (e) {
    crashed(`${name} bench`, e);
  }
}
summarise();
