// The trigram worker's job, run here on its own connection as the worker runs it: it writes the
// trigrams of every row the summaries' connection wrote without them, and a query's candidates are
// then exactly the rows holding the text (the planted texts below are the truth).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { IndexedText } from "@/lib/rollout";
import { runSearchJob } from "./indexer";
import { openSearch, pendingTextCount, writeSearchText } from "./store";

const textOf = (s: string): IndexedText => {
  const bytes = Buffer.from(s, "utf8");
  return {
    body: deflateRawSync(bytes),
    deflated: true,
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

  it("replaces a rollout's text whether its trigrams were written or still wait, raw or deflated", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lens-indexer-")), "i.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    openSearch(db);
    // Long text is kept raw; the first two rows' trigrams are written before they are replaced.
    const long = (word: string) => ({ ...textOf(`${word} `.repeat(1000)), deflated: false });
    const raw = (t: IndexedText): IndexedText => ({ ...t, body: inflateRawSync(t.body) });
    writeSearchText(db, "a", raw(long("alpha")));
    writeSearchText(db, "b", textOf("bravo bravo"));
    while (runSearchJob({ kind: "index-text", file }).more);
    writeSearchText(db, "c", textOf("charlie charlie"));
    db.transaction(() => {
      writeSearchText(db, "a", textOf("delta delta"));
      writeSearchText(db, "b", raw(long("echo")));
      writeSearchText(db, "c", textOf("foxtrot foxtrot"));
    })();
    expect(pendingTextCount(db)).toBe(3);
    while (runSearchJob({ kind: "index-text", file }).more);
    const ids = (q: string) =>
      db
        .prepare(
          "SELECT t.id FROM search_fts f JOIN search_text t ON t.rid = f.rowid WHERE search_fts MATCH ?",
        )
        .pluck()
        .all(q);
    for (const [q, id] of [
      ["alp", []],
      ["bra", []],
      ["cha", []],
      ["del", ["a"]],
      ["ech", ["b"]],
      ["fox", ["c"]],
    ] as const)
      expect(ids(q), q).toEqual(id);
    // The trigram index holds exactly the three rows' rowids: nothing left of the replaced ones.
    expect(
      db
        .prepare(
          "SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH 'lta OR cho OR rot OR pha OR avo OR rli'",
        )
        .pluck()
        .get(),
    ).toBe(3);
    expect(db.prepare("SELECT COUNT(*) FROM search_text").pluck().get()).toBe(3);
    db.close();
  });
});
