// Error bodies and categories from docs/capture-format.md §9.2/§9.3 and seed 000's 422 (FastAPI refusing an extra `reasoning` field).
import { describe, expect, it } from "vitest";
import { captureExchangeSchema } from "@/lib/schema";
import { formatErrorLocation } from "@/lib/store/exchange-error";
import { describeFailedCall, failedCallFromExchange, isFailedExchange } from "./failed-call";

const exchange = (fields: Record<string, unknown>) =>
  captureExchangeSchema.parse({ model_call_id: "aa0ec025e96d0a8000a00bc1a250f789", ...fields });

describe("formatErrorLocation", () => {
  it("drops FastAPI's body and brackets indices", () => {
    expect(formatErrorLocation(["body", "messages", 2, "reasoning"])).toBe("messages[2].reasoning");
    expect(formatErrorLocation(["query", "limit"])).toBe("query.limit");
    expect(formatErrorLocation(["body", "tools", 0, 1])).toBe("tools[0][1]");
    expect(formatErrorLocation(["body"])).toBeNull();
  });
});

describe("failedCallFromExchange", () => {
  it("reads the 422 validation detail (seed 000)", () => {
    const x = exchange({
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
    expect(failedCallFromExchange(x, 2)).toEqual({
      position: 2,
      status_code: 422,
      error_category: "client_error",
      error_type: "extra_forbidden",
      location: "messages[2].reasoning",
      message: "Extra inputs are not permitted",
    });
  });

  it("reads an OpenAI-style error and a raw body's first line", () => {
    const openai = exchange({
      status_code: 429,
      error_category: "rate_limit",
      response: { error: { message: "Slow down", type: "requests" } },
    });
    expect(failedCallFromExchange(openai, 5)).toMatchObject({
      error_type: "requests",
      message: "Slow down",
      location: null,
    });
    const raw = exchange({
      status_code: 502,
      error_category: "upstream_error",
      response: null,
      response_raw: "Bad Gateway\n<html>…</html>",
    });
    expect(failedCallFromExchange(raw, 1).message).toBe("Bad Gateway");
  });
});

describe("describeFailedCall", () => {
  const base = {
    position: 3,
    status_code: null,
    error_category: null,
    error_type: null,
    location: null,
    message: null,
  };
  it("words each kind of failure", () => {
    expect(describeFailedCall({ ...base, error_category: "timeout" })).toBe(
      "call 3 failed (timeout)",
    );
    expect(
      describeFailedCall({
        ...base,
        status_code: 500,
        error_category: "upstream_error",
        message: "boom",
      }),
    ).toBe("call 3 got HTTP 500 (upstream error: “boom”)");
    expect(
      describeFailedCall({ ...base, status_code: 200, error_category: "stream_truncated" }),
    ).toBe("call 3 failed after HTTP 200 (stream closed early)");
    expect(
      describeFailedCall({
        ...base,
        status_code: 400,
        error_type: "invalid_request",
        message: "bad",
      }),
    ).toBe("call 3 got HTTP 400 `invalid_request` (“bad”)");
  });
});

describe("isFailedExchange", () => {
  it("counts non-2xx, missing statuses and 2xx with a category (§9.3)", () => {
    expect(isFailedExchange({ status_code: 200, error_category: null })).toBe(false);
    expect(isFailedExchange({ status_code: 204, error_category: null })).toBe(false);
    expect(isFailedExchange({ status_code: 422, error_category: "client_error" })).toBe(true);
    expect(isFailedExchange({ status_code: null, error_category: "connection" })).toBe(true);
    expect(isFailedExchange({ status_code: 200, error_category: "capture_parse_error" })).toBe(
      true,
    );
  });
});
