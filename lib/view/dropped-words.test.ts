import { describe, expect, it } from "vitest";
import { droppedWords } from "./dropped-words";

const call = (
  role: "main" | "branch" | "side_call" | "quarantined" | "excluded" | "unchained",
  quarantine: "retry_dropped" | "ambiguous_parent" | null = null,
  retry: "kept" | "dropped" | "unresolved" | null = null,
) => ({ role, quarantine, retry });

describe("droppedWords", () => {
  it("calls a retry loser what the timeline calls it", () => {
    const calls = [
      call("main"),
      call("quarantined", "retry_dropped", "dropped"),
      call("side_call"),
      call("side_call"),
    ];
    expect(droppedWords(0, calls)).toBe("1 retry dropped, 2 side calls");
  });

  it("counts branches as chains and keeps ambiguous parents quarantined", () => {
    const calls = [
      call("main"),
      call("branch"),
      call("branch"),
      call("quarantined", "ambiguous_parent"),
    ];
    expect(droppedWords(1, calls)).toBe("1 other chain, 1 quarantined");
    expect(droppedWords(0, [call("main")])).toBe("nothing");
    expect(
      droppedWords(0, [
        call("quarantined", "retry_dropped", "dropped"),
        call("quarantined", "retry_dropped", "dropped"),
      ]),
    ).toBe("2 retries dropped");
  });
});
