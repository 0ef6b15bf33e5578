// Nothing the browser tests do writes where a user's data lives: the served runs root (the fixture
// copies, the gym-v1 case stores, the generated runs) is fingerprinted before the first test and
// checked after the last, so every page and route any spec opens is covered, not only the ones
// security.spec's read-only test asks for. The runner's global setup; its return is the teardown.
import { fingerprintTree } from "../../lib/testing/fingerprint";
import { treeEntries } from "./gym-cases";
import { E2E_RUNS } from "./paths";

const LISTED = 20;

/** What changed between two fingerprints: paths added, removed, or with other bytes or times. */
function changedPaths(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => before[k] !== after[k])
    .sort()
    .map((k) => (k in before ? (k in after ? `changed ${k}` : `removed ${k}`) : `created ${k}`));
}

export default async function readOnlyRoot(): Promise<() => Promise<void>> {
  // The web server (and its runs root, written by prepare-runs) is up before the global setup.
  const paths = new Set(treeEntries(E2E_RUNS)); // directories too: a created one shows
  const before = fingerprintTree(E2E_RUNS);
  return async () => {
    const changed = [
      ...new Set([
        ...changedPaths(before, fingerprintTree(E2E_RUNS)),
        ...treeEntries(E2E_RUNS)
          .filter((p) => !paths.has(p))
          .map((p) => `created ${p}`),
      ]),
    ];
    if (changed.length > 0)
      throw new Error(
        `the tests changed the served runs root ${E2E_RUNS}: ${changed.slice(0, LISTED).join(", ")}` +
          (changed.length > LISTED ? ` and ${changed.length - LISTED} more` : ""),
      );
  };
}
