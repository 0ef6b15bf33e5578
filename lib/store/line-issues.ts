// The issues one store file's read lists: the first MAX_ISSUES in full, then only a count (closed
// by one issue saying how many more there were), so a file of a million bad lines is judged in
// one pass instead of a minute of error messages. Not responsible for finding the problems
// (./token-store) or for what makes a line an entry (lib/schema).
import type { StoreIssue } from "./token-store";

export const MAX_ISSUES = 200;

export class LineIssues {
  private unlisted = 0;
  private unlistedErrors = false;

  constructor(
    private readonly issues: StoreIssue[],
    private readonly file: string,
  ) {}

  /** No more issues are listed: further problems are counted, their messages never built. */
  get full(): boolean {
    return this.issues.length >= MAX_ISSUES;
  }

  /** Lists the issue (its message built only then), or counts it once the list is full. */
  note(line: number | null, severity: StoreIssue["severity"], message: string | (() => string)) {
    if (this.full) return this.count(severity);
    const text = typeof message === "string" ? message : message();
    this.issues.push({ file: this.file, line, severity, message: text });
  }

  count(severity: StoreIssue["severity"]): void {
    this.unlisted++;
    if (severity === "error") this.unlistedErrors = true;
  }

  /** The closing issue that counts what was not listed; nothing when everything was. */
  close(): void {
    if (this.unlisted === 0) return;
    const n = this.unlisted;
    this.issues.push({
      file: this.file,
      line: null,
      severity: this.unlistedErrors ? "error" : "warning",
      message: `${n} more ${n === 1 ? "problem" : "problems"} in this file not listed (the first ${MAX_ISSUES} are)`,
    });
  }
}

/**
 * Whether a parsed line could be a token entry at all: an object with its required fields of the
 * right kinds (ids non-empty strings, the three lists arrays). One that cannot is refused without
 * running (and describing) the schema; one that can is left to the schema, which alone decides.
 */
export function mayBeEntry(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.rollout_id === "string" &&
    typeof v.model_call_id === "string" &&
    v.model_call_id !== "" &&
    Array.isArray(v.prompt_token_ids) &&
    Array.isArray(v.generation_token_ids) &&
    Array.isArray(v.generation_log_probs)
  );
}
