// The cut text gives FTS5 the same trigrams as the text: checked against FTS5's own trigram
// tokenizer (the reference), on text in many shapes and on random bytes.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SEGMENT_SEPARATOR as SEPARATOR } from "@/lib/rollout";
import { TRIGRAM_FTS } from "./store";
import { trigramText } from "./trigram-text";

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

/** The terms FTS5's trigram tokenizer (as the index configures it) makes of each text. */
function termsOf(texts: readonly Uint8Array[]): Array<Set<string>> {
  const db = new Database(":memory:");
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING ${TRIGRAM_FTS}`);
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, row)");
    const put = db.prepare("INSERT INTO t (rowid, body) VALUES (?, ?)");
    const drop = db.prepare("DELETE FROM t WHERE rowid = 1");
    const terms = db.prepare("SELECT term FROM v").pluck();
    return texts.map((text) => {
      put.run(1, Buffer.from(text));
      const set = new Set(terms.all() as string[]);
      drop.run();
      return set;
    });
  } finally {
    db.close();
  }
}

function expectSameTrigrams(texts: readonly Uint8Array[]): void {
  const cuts = texts.map((t) => trigramText(t));
  const before = termsOf(texts);
  const after = termsOf(cuts);
  texts.forEach((text, k) => {
    const was = before[k] as Set<string>;
    const is = after[k] as Set<string>;
    const lost = [...was].filter((g) => !is.has(g));
    // A trigram the text lacks is made only across a join, and no query holds the separator.
    const made = [...is].filter((g) => !was.has(g) && !g.includes(SEPARATOR));
    expect({ text: Buffer.from(text).toString("hex"), lost, made }).toEqual({
      text: Buffer.from(text).toString("hex"),
      lost: [],
      made: [],
    });
  });
}

/** A seeded generator (mulberry32), so a failure is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("trigramText", () => {
  it("keeps every trigram of text in many shapes, and makes none but across its joins", () => {
    const paragraph =
      'Traceback (most recent call last):\n  File "run.py", line 3\nValueError: bad\n';
    expectSameTrigrams(
      [
        "",
        "a",
        "ab",
        "abc",
        "abcabcabc",
        paragraph.repeat(20),
        `${paragraph}$ rm -rf /var/cache/apt\n${paragraph.toUpperCase()}${paragraph}`,
        "Hello HELLO hello hElLo",
        "Привет, мир! Привет, мир! Привет",
        "東京都の天気は晴れです。東京都の天気",
        "café naïve résumé café",
        "emoji 🙂🙂 emoji 🙂 end",
        `one${SEPARATOR}two${SEPARATOR}one${SEPARATOR}two`,
        "nul\u0000in\u0000the\u0000nul\u0000in",
      ].map(utf8),
    );
  });

  it("keeps the trigrams of bytes that are not UTF-8 (a token cut mid-character, stray bytes)", () => {
    const bytes = (...parts: Array<string | number[]>) =>
      new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));
    expectSameTrigrams([
      bytes("abc", [0xe6, 0x9d], "abc", [0xe6, 0x9d], "abcabc"),
      bytes([0x80, 0x80], "xyzxyz", [0xbf], "xyz"),
      bytes("ab", [0xff, 0xfe], "ab", [0xff], "abab"),
      bytes([0xf0, 0x9f, 0x99], "ok ok ok", [0xf0, 0x9f]),
    ]);
  });

  it("keeps every trigram of random text of ASCII, multi-byte characters and stray bytes", () => {
    const next = random(2179);
    const alphabet = ["a", "b", "A", "B", " ", "\n", "é", "я", "語", "🙂", SEPARATOR];
    const texts: Uint8Array[] = [];
    for (let k = 0; k < 300; k++) {
      const parts: number[] = [];
      const n = Math.floor(next() * 200);
      for (let i = 0; i < n; i++) {
        if (next() < 0.05) parts.push(0x80 + Math.floor(next() * 128));
        else parts.push(...utf8(alphabet[Math.floor(next() * alphabet.length)] as string));
      }
      texts.push(new Uint8Array(parts));
    }
    expectSameTrigrams(texts);
  });

  it("gives FTS5 a fraction of text that repeats itself", () => {
    const text = utf8(
      Array.from({ length: 200 }, (_, i) => `$ ls /tmp/run-${i % 7}\nfile.txt\nexit code 0\n`).join(
        "",
      ),
    );
    expect(trigramText(text).length).toBeLessThan(text.length / 10);
  });
});
