// Query parameters shared by routes and pages, validated into the types lib expects.
import { builderProfileSchema, type BuilderProfileChoice } from "@/lib/schema";
import { InvalidInputError } from "@/lib/errors";

export function profileParam(value: string | null | undefined): BuilderProfileChoice | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  const parsed = builderProfileSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidInputError(
      `profile must be one of seed, gym-v1, auto; got ${JSON.stringify(value)}`,
    );
  return parsed.data;
}

/** JSON that is never cached by a proxy: runs change while people look at them. */
export function json(body: unknown): Response {
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}
