// The seed profile's refusal of an id never prints digits the file did not hold: 2^60 parses to a
// double whose shortest form is 1152921504606847000, not the file's 1152921504606846976.
import { expect, it } from "vitest";
import { tokenIdArray } from "./token-ids";

const messageOf = (text: string) => {
  const r = tokenIdArray.safeParse(JSON.parse(text));
  return r.success ? null : (r.error.issues[0]?.message ?? "");
};

it("an id past 2^53 is named as such, without rounded digits", () => {
  const m = messageOf("[1, 1152921504606846976]");
  expect(m).toBe(
    "token id at index 1 is an integer beyond 2^53 (its exact digits are in the file): ids must be non-negative integers",
  );
  expect(m).not.toContain("1152921504606847000");
});

it("a negative id keeps its digits", () => {
  expect(messageOf("[-1]")).toBe("token id at index 0 is -1: ids must be non-negative integers");
});
