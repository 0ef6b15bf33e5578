// A failed call's error location is spelled one way wherever it is shown: the one-line summary
// (run table, timeline, conversation) and the severity model's sentence (banner, alerts).
import { describe, expect, it } from "vitest";
import { captureExchangeSchema } from "@/lib/schema";
import { describeFailedCall, failedCallFromExchange } from "./failed-call";
import { errorSummary, readErrorBody } from "@/lib/store/exchange-error";

const exchange = (fields: Record<string, unknown>) =>
  captureExchangeSchema.parse({ model_call_id: "aa0ec025e96d0a8000a00bc1a250f789", ...fields });

// The seed-000 failure: FastAPI's 422 for the extra `reasoning` field (docs/capture-format.md §9.2).
const seed000 = exchange({
  status_code: 422,
  error_category: "client_error",
  response: {
    detail: [
      {
        type: "extra_forbidden",
        loc: ["body", "messages", 2, "reasoning"],
        msg: "Extra inputs are not permitted",
      },
    ],
  },
});

describe("one spelling of an error location", () => {
  it("the one-line summary writes the location as a reader does", () => {
    expect(errorSummary(seed000)).toBe(
      "extra_forbidden at messages[2].reasoning: Extra inputs are not permitted",
    );
  });

  it("the summary and the severity sentence name the same location", () => {
    const where = "messages[2].reasoning";
    expect(readErrorBody(seed000).location).toBe(where);
    expect(describeFailedCall(failedCallFromExchange(seed000, 2))).toBe(
      `call 2 got HTTP 422 \`extra_forbidden\` at \`${where}\``,
    );
    expect(errorSummary(seed000)).toContain(` at ${where}:`);
  });

  it("leaves the location out when the detail points nowhere", () => {
    const bare = exchange({
      status_code: 422,
      error_category: "client_error",
      response: { detail: [{ type: "missing", loc: ["body"], msg: "Field required" }] },
    });
    expect(errorSummary(bare)).toBe("missing: Field required");
  });

  it("falls back to the body's message, then the category (never a raw HTML line)", () => {
    const openai = exchange({
      status_code: 429,
      error_category: "rate_limit",
      response: { error: { message: "Slow down", type: "requests" } },
    });
    expect(errorSummary(openai)).toBe("Slow down");
    const html = exchange({
      status_code: 502,
      error_category: "upstream_error",
      response_raw: "<html><body>Bad gateway</body></html>",
    });
    expect(errorSummary(html)).toBe("upstream_error");
    expect(readErrorBody(html).message).toBe("<html><body>Bad gateway</body></html>");
  });
});
