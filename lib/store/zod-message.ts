// One readable sentence from a zod error: "field.path: message" for the first few issues, as the
// store readers report a line that does not match its schema. Pure.
import type { z } from "zod";

export function describeZodError(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => {
    const where = i.path.length > 0 ? i.path.map(String).join(".") : "record";
    return `${where}: ${i.message}`;
  });
  const more = error.issues.length > max ? ` (+${error.issues.length - max} more)` : "";
  return parts.join("; ") + more;
}
