// `--profile auto` resolves per store directory from all its evidence (docs/gym-v1-store.md), so an
// empty token file is judged as its directory's writer judges it.
import { describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import {
  EVIDENCE_FILES,
  explainEvidence,
  profileFromEvidence,
  storeEvidence,
} from "@/lib/store/evidence";
import { buildRollout } from "./build";

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

describe("auto on a large store", () => {
  const seed = (id: string) => line(tokenRecord(id, "c1", [1, 2], [3]));
  const ids = Array.from({ length: 200 }, (_, i) => `r${String(i).padStart(3, "0")}`);
  it("reads the first records of at most EVIDENCE_FILES token files, and says how many", async () => {
    const dir = tempStore(Object.fromEntries(ids.map((id) => [`${id}.tokens.jsonl`, seed(id)])));
    const e = await storeEvidence(dir);
    expect([e.read, e.tokenFiles, EVIDENCE_FILES]).toEqual([64, 200, 64]);
    expect(explainEvidence(e)).toEqual({
      profile: "seed",
      reason:
        "No Gym main state files or schema_version (first records of 64 of 200 token files read) → seed (closed PR #2179's builder)",
    });
  });
  it("still reads the newest and the oldest ids: Gym main's records at either end are found", async () => {
    const v1 = (id: string) => line(tokenRecord(id, "c1", [1, 2], [3], { schema_version: 1 }));
    for (const at of [ids[0]!, ids[199]!]) {
      const files = Object.fromEntries(
        ids.map((id) => [`${id}.tokens.jsonl`, id === at ? v1(id) : seed(id)]),
      );
      expect(profileFromEvidence(await storeEvidence(tempStore(files)))).toBe("gym-v1");
    }
  });
});
