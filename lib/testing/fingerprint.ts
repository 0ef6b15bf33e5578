// Fingerprints of a whole directory tree (sha256 + size + mtime of every file), to prove that reads
// changed nothing.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export function fingerprintTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else
        out[path.relative(dir, p)] =
          `${createHash("sha256").update(readFileSync(p)).digest("hex")}:${st.size}@${st.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}
