// `--profile auto` resolves per store directory from all its evidence (gym-v1-store.md), so an
// empty token file is judged as its directory's writer judges it.
import { describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { profileFromEvidence, storeEvidence } from "@/lib/store/store-evidence";
import { buildRollout } from "./build-rollout";

describe("auto decides per store directory", () => {
  const seedLine = line(tokenRecord("a", "c1", [1, 2], [3]));
  it("judges an empty token file by its directory's evidence", async () => {
    const gymDir = tempStore({
      "a.tokens.jsonl": seedLine,
      "a.tokens.state.json": "{}",
      "b.tokens.jsonl": "",
    });
    expect((await buildRollout(gymDir, "b", { profile: "auto" })).profile).toBe("gym-v1");
    const seedDir = tempStore({ "a.tokens.jsonl": seedLine, "b.tokens.jsonl": "" });
    expect((await buildRollout(seedDir, "b", { profile: "auto" })).profile).toBe("seed");
  });
  it("takes any schema_version anywhere as Gym main's, and nothing at all as Gym main's", async () => {
    const v1 = line(tokenRecord("b", "c1", [1, 2], [3], { schema_version: 1 }));
    const mixed = tempStore({ "a.tokens.jsonl": seedLine, "b.tokens.jsonl": v1 });
    expect(profileFromEvidence(await storeEvidence(mixed))).toBe("gym-v1");
    expect(profileFromEvidence(await storeEvidence(tempStore({ "a.tokens.jsonl": "" })))).toBe(
      "gym-v1",
    );
  });
});
