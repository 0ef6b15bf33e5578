// JSON as Gym main reads its small lifecycle files (orjson): integers kept apart from floats and
// exact (bigint), Python truthiness, and orjson's error text ("<reason>: line L column C (char N)").
// Only for files of a few hundred bytes (state.json); token lines go through the store's readers.
// Not responsible for what the values mean (lib/store/gym-freeze decides that).

/** A JSON integer, exact: Python's `isinstance(x, int)` is true for these (and for booleans). */
export class PyInt {
  constructor(readonly value: bigint) {}
}

export type PyValue = null | boolean | string | number | PyInt | PyValue[] | Map<string, PyValue>;

export type PyJsonResult = { ok: true; value: PyValue } | { ok: false; error: string };

class PyJsonError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

/** Python's `bool(x)`. */
export function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "number") return v !== 0;
  if (v instanceof PyInt) return v.value !== BigInt(0);
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}

/** `isinstance(v, int)`: a JSON integer or a boolean; the integer's value, else null. */
export function pyInt(v: PyValue | undefined): bigint | null {
  if (v instanceof PyInt) return v.value;
  if (typeof v === "boolean") return v ? BigInt(1) : BigInt(0);
  return null;
}

/** orjson.loads on `text`; on failure the error as the consumer prints it (`JSONDecodeError: …`). */
export function parsePyJson(text: string): PyJsonResult {
  if (text.length === 0)
    return { ok: false, error: decodeError("Input is a zero-length, empty document", text, 0) };
  const p = new Parser(text);
  try {
    const value = p.value();
    p.skipSpace();
    if (p.pos < text.length) throw new PyJsonError("unexpected content after document", p.pos);
    return { ok: true, value };
  } catch (err) {
    if (!(err instanceof PyJsonError)) throw err;
    return { ok: false, error: decodeError(err.message, text, err.pos) };
  }
}

/** Python's JSONDecodeError text: line and column are 1-based, char is the 0-based offset. */
function decodeError(reason: string, text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - (before.lastIndexOf("\n") + 1) + 1;
  return `JSONDecodeError: ${reason}: line ${line} column ${column} (char ${pos})`;
}

// Sticky, so a number is matched where it starts without copying the rest of the text.
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERALS: Record<string, PyValue> = { true: true, false: false, null: null };

/** orjson's nesting limit for loads: one array or object deeper fails (and our stack is safe). */
export const LOADS_RECURSION_LIMIT = 1024;

class Parser {
  pos = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  /** An array or object, one level deeper; past orjson's limit the document fails there. */
  private nested<T>(read: () => T): T {
    if (++this.depth > LOADS_RECURSION_LIMIT)
      throw new PyJsonError("Recursion limit reached", this.pos);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  skipSpace(): void {
    while (this.pos < this.s.length && " \t\n\r".includes(this.s[this.pos] as string)) this.pos++;
  }

  private fail(reason: string, at = this.pos): never {
    throw new PyJsonError(this.pos >= this.s.length ? "unexpected end of data" : reason, at);
  }

  value(): PyValue {
    this.skipSpace();
    const c = this.s[this.pos];
    if (c === "{") return this.nested(() => this.object());
    if (c === "[") return this.nested(() => this.array());
    if (c === '"') return this.string();
    if (c === "t" || c === "f" || c === "n") return this.literal();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    return this.fail("unexpected character");
  }

  private literal(): PyValue {
    for (const [word, v] of Object.entries(LITERALS)) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    throw new PyJsonError("invalid literal", this.pos);
  }

  private number(): PyValue {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.s);
    if (!m) return this.fail("no digit after minus sign", this.pos + 1);
    const text = m[0];
    const next = this.s[this.pos + text.length];
    if (next === ".") this.fail("no digit after decimal point", this.pos + text.length + 1);
    if (next === "e" || next === "E")
      this.fail("no digit after exponent sign", this.pos + text.length + 1);
    if (m[1] === "0" && next !== undefined && next >= "0" && next <= "9")
      this.fail("number with leading zero is not allowed", this.pos + text.length);
    this.pos += text.length;
    return m[2] === undefined && m[3] === undefined ? new PyInt(BigInt(text)) : Number(text);
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    for (; this.pos < this.s.length; this.pos++) {
      const c = this.s.charCodeAt(this.pos);
      if (c === 0x22) {
        this.pos++;
        try {
          return JSON.parse(this.s.slice(start, this.pos)) as string;
        } catch {
          throw new PyJsonError("invalid escaped sequence in string", start);
        }
      }
      if (c === 0x5c) this.pos++;
      else if (c < 0x20) this.fail("unexpected control character in string");
    }
    return this.fail("unexpected end of data");
  }

  private array(): PyValue[] {
    const out: PyValue[] = [];
    this.pos++;
    this.skipSpace();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipSpace();
      const c = this.s[this.pos++];
      if (c === "]") return out;
      if (c !== ",")
        this.fail("unexpected character, expected a comma or a closing bracket", this.pos - 1);
    }
  }

  private object(): Map<string, PyValue> {
    const out = new Map<string, PyValue>();
    this.pos++;
    this.skipSpace();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.s[this.pos] !== '"')
        this.fail("unexpected character, expected a string for object key");
      const key = this.string();
      this.skipSpace();
      if (this.s[this.pos] !== ":")
        this.fail("unexpected character, expected a colon after object key");
      this.pos++;
      out.set(key, this.value());
      this.skipSpace();
      const c = this.s[this.pos++];
      if (c === "}") return out;
      if (c !== ",")
        this.fail("unexpected character, expected a comma or a closing brace", this.pos - 1);
    }
  }
}
