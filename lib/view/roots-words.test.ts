// The sentences' facts are the builder profiles' documented differences (lib/builder/profiles);
// the counts are claude-code-capture-on 0-0's (seed 2 roots, 2 side calls; gym-v1 4 roots).
import { describe, expect, it } from "vitest";
import { rootsDifference } from "./roots-words";

const seed = (roots: number, side_calls = 0) => ({ profile: "seed" as const, roots, side_calls });
const gym = (roots: number) => ({ profile: "gym-v1" as const, roots, side_calls: 0 });

describe("rootsDifference", () => {
  it("says nothing when both profiles count the same roots", () => {
    expect(rootsDifference(seed(1), gym(1))).toBeNull();
  });
  it("side calls set aside by seed are roots under gym-v1", () => {
    expect(rootsDifference(seed(2, 2), gym(4))).toBe(
      "seed counts 2 roots here, gym-v1 4 roots (its consumer masks the rollout for it): seed sets 2 side calls aside before it links, and gym-v1 keeps every call, so a side call is a root of its own.",
    );
  });
  it("more extra roots than side calls: the recorded parents too, told from either side", () => {
    expect(rootsDifference(gym(3), seed(1, 1))).toBe(
      "gym-v1 counts 3 roots here, seed 1 root: seed sets 1 side call aside before it links, and gym-v1 keeps every call, so a side call is a root of its own; seed links a call to its recorded parent across a prefix break, where gym-v1 links by token prefix only.",
    );
  });
  it("fewer roots under gym-v1: the calls it drops", () => {
    expect(rootsDifference(gym(1), seed(2))).toBe(
      "gym-v1 counts 1 root here, seed 2 roots: gym-v1 drops calls that generated nothing before it links, and seed keeps them.",
    );
  });
});
