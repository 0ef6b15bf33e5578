// The trigram worker's job, run here on its own connection as the worker runs it: it writes the
// trigrams of every row the summaries' connection wrote without them, and a query's candidates are
// then exactly the rows holding the text (the planted texts below are the truth).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { IndexedText } from "@/lib/rollout";
import { runSearchJob } from "./indexer";
import { openSearch, pendingTextCount, writeSearchText } from "./store";

const textOf = (s: string): IndexedText => {
  const bytes = Buffer.from(s, "utf8");
  return {
    packed: deflateRawSync(bytes),
    bytes: bytes.length,
    segments: [["g", "c0", 0, 1, 0]],
    trigrams: true,
  };
};

describe("the trigram worker's job", () => {
  it("indexes, from its own connection, every row written without trigrams", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lens-indexer-")), "i.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    openSearch(db);
    const planted = new Set<string>();
    db.transaction(() => {
      for (let i = 0; i < 300; i++) {
        const id = `r${i}`;
        const hit = i % 37 === 5;
        if (hit) planted.add(id);
        const body = `step ${i}: ${hit ? "rm -rf /var/cache/apt then " : ""}测试 全部通过 ${i * 7}`;
        writeSearchText(db, id, textOf(body));
      }
    })();
    expect(pendingTextCount(db)).toBe(300);
    let turns = 0;
    while (runSearchJob({ kind: "index-text", file }).more) turns++;
    expect(turns).toBeLessThan(10);
    expect(pendingTextCount(db)).toBe(0);
    const match = (q: string) =>
      (
        db
          .prepare(
            "SELECT t.id FROM search_fts f JOIN search_text t ON t.rid = f.rowid WHERE search_fts MATCH ?",
          )
          .pluck()
          .all(q) as string[]
      ).sort();
    expect(match('"/va" AND "var" AND "ar/" AND "r/c" AND "/ca" AND "cac"')).toEqual(
      [...planted].sort(),
    );
    expect(match('"测试 "')).toHaveLength(300);
    db.close();
  });
});
