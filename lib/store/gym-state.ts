// Gym main's lifecycle files as its freeze reads them (docs/gym-v1-store.md §1, §3): `state.json` with
// Python truthiness and its `int()` and `isinstance` checks, and the intents log without cancels.
// Pure: bytes in, facts or the consumer's error out. Not responsible for the token file (gym-freeze).
import { isUtf8 } from "node:buffer";
import { parsePyJson, pyInt, PyInt, truthy, type PyValue } from "./py-json";

export interface GymState {
  /** A `state.json` exists (absent: every field takes its default). */
  exists: boolean;
  frozen: boolean;
  retired: boolean;
  incomplete: boolean;
  /** `snapshot_id` as stored; null when the key is missing. */
  snapshotId: PyValue | null;
  /** `version` as stored (0 when missing); converted with Python's int() only when the freeze adds to it. */
  version: PyValue;
  /** `entry_digests` (call id -> SHA-256 hex of the line's bytes) and `indexed_size`, when valid. */
  digests: Map<string, PyValue>;
  indexedSize: bigint;
  /** `entry_digests` or `indexed_size` missing or of the wrong type: the index restarts at 0. */
  legacy: boolean;
}

export type GymStateRead = { ok: true; state: GymState } | { ok: false; error: string };

const DEFAULT_STATE: GymState = {
  exists: false,
  frozen: false,
  retired: false,
  incomplete: false,
  snapshotId: "",
  version: new PyInt(BigInt(0)),
  digests: new Map(),
  indexedSize: BigInt(0),
  legacy: false,
};

/** `_read_state`: defaults without a file, the parser's error, or "not an object". */
export function readGymState(bytes: Buffer | null, rolloutId: string): GymStateRead {
  if (bytes === null) return { ok: true, state: { ...DEFAULT_STATE, digests: new Map() } };
  if (!isUtf8(bytes))
    return { ok: false, error: "JSONDecodeError: str is not valid UTF-8: surrogates not allowed" };
  const parsed = parsePyJson(bytes.toString("utf8"));
  if (!parsed.ok) return parsed;
  const s = parsed.value;
  if (!(s instanceof Map))
    return { ok: false, error: `ValueError: Invalid token-capture state for rollout ${rolloutId}` };
  const index = s.get("entry_digests");
  const size = pyInt(s.get("indexed_size"));
  return {
    ok: true,
    state: {
      exists: true,
      frozen: truthy(s.get("frozen")),
      retired: truthy(s.get("retired")),
      incomplete: truthy(s.get("incomplete")),
      snapshotId: s.has("snapshot_id") ? (s.get("snapshot_id") as PyValue) : null,
      version: s.has("version") ? (s.get("version") as PyValue) : new PyInt(BigInt(0)),
      digests: index instanceof Map ? new Map(index) : new Map(),
      indexedSize: size ?? BigInt(0),
      legacy: !(index instanceof Map) || size === null,
    },
  };
}

/** Python's `int(v)` on a JSON value: the integer, or the exception the freeze would raise. */
export function pythonInt(v: PyValue): { ok: true; value: bigint } | { ok: false; error: string } {
  const n = pyInt(v);
  if (n !== null) return { ok: true, value: n };
  // A float: 1e999 reads as infinity, which Python's int() refuses (never a crash here).
  if (typeof v === "number") {
    if (Number.isNaN(v))
      return { ok: false, error: "ValueError: cannot convert float NaN to integer" };
    if (!Number.isFinite(v))
      return { ok: false, error: "OverflowError: cannot convert float infinity to integer" };
    return { ok: true, value: BigInt(Math.trunc(v)) };
  }
  if (typeof v === "string") {
    const t = v.trim().replace(/_(?=\d)/g, "");
    if (/^[+-]?\d+$/.test(t)) return { ok: true, value: BigInt(t) };
    return {
      ok: false,
      error: `ValueError: invalid literal for int() with base 10: ${pyRepr(v)}`,
    };
  }
  const type = v === null ? "NoneType" : Array.isArray(v) ? "list" : "dict";
  return {
    ok: false,
    error: `TypeError: int() argument must be a string, a bytes-like object or a real number, not '${type}'`,
  };
}

/** Python's `str(v)` for the snapshot id (strings as they are, other values as Python prints them). */
export function pythonStr(v: PyValue): string {
  if (typeof v === "string") return v;
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v instanceof PyInt) return v.value.toString();
  if (typeof v === "number") return Number.isInteger(v) ? v.toFixed(1) : String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${[...v].map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
}

/** Python's `repr` of a short value, for error messages (single quotes unless the text has one). */
export function pyRepr(v: PyValue): string {
  if (typeof v !== "string") return pythonStr(v);
  const q = v.includes("'") && !v.includes('"') ? '"' : "'";
  const body = v
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t");
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

export interface GymIntents {
  /** Intent ids in file order (duplicates kept), as Gym main reads them: every non-blank line. */
  ids: string[];
  error: string | null;
}

/** `_dangling_intents`' read: `splitlines()`, strip, UTF-8. `-c2` is an id like any other. */
export function readGymIntents(bytes: Buffer | null): GymIntents {
  if (bytes === null) return { ids: [], error: null };
  const ids: string[] = [];
  for (const raw of splitLines(bytes)) {
    const line = stripBytes(raw);
    if (line.length === 0) continue;
    if (!isUtf8(line))
      return { ids, error: "UnicodeDecodeError: 'utf-8' codec can't decode the intents file" };
    ids.push(line.toString("utf8"));
  }
  return { ids, error: null };
}

/** bytes.splitlines(): \n, \r\n and \r end a line. */
function splitLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x0a && c !== 0x0d) continue;
    out.push(b.subarray(start, i));
    if (c === 0x0d && b[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

const PY_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c]);

/** bytes.strip(): ASCII whitespace off both ends. */
export function stripBytes(b: Buffer): Buffer {
  let s = 0;
  let e = b.length;
  while (s < e && PY_SPACE.has(b[s] as number)) s++;
  while (e > s && PY_SPACE.has(b[e - 1] as number)) e--;
  return b.subarray(s, e);
}

/** The snapshot's version: indexed tail lines (a current index only), then one for the freeze. */
export function freezeVersion(
  st: GymState,
  recovered: number,
): { ok: true; value: number } | { ok: false; error: string } {
  const v = pythonInt(st.version);
  if (!v.ok) return v;
  const added = (recovered > 0 && !st.legacy ? recovered : 0) + (st.frozen ? 0 : 1);
  return { ok: true, value: Number(v.value) + added };
}
