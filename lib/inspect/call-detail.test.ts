import { describe, expect, it } from "vitest";
import { callDetailSchema } from "@/lib/schema/api-call-detail";
import { openRollout } from "@/lib/testing/inspect-fixture";
import { callDetail } from "./call-detail";

describe("failed HTTP calls and call detail", () => {
  it("places the 422 after the tool call and summarises its body", async () => {
    const model = await openRollout("opencode-before-fix", "3-0");
    const { view } = model;
    expect(view.calls).toHaveLength(1);
    expect(view.failed).toHaveLength(1);
    expect(view.failed[0]).toMatchObject({
      status_code: 422,
      error_category: "client_error",
      after_call: view.calls[0]!.model_call_id,
    });
    expect(view.failed[0]!.error).toBe(
      "extra_forbidden at messages[2].reasoning: Extra inputs are not permitted",
    );
    const detail = callDetailSchema.parse(callDetail(model, view.failed[0]!.model_call_id));
    expect(detail.call).toBeNull();
    expect(detail.exchanges[0]).toMatchObject({ status_code: 422, error_category: "client_error" });
    expect(detail.exchanges[0]!.error_body).toMatchObject({
      detail: [{ type: "extra_forbidden" }],
    });
  });

  it("splits a call's prompt into inherited prefix and interstitial text", async () => {
    const model = await openRollout("opencode-after-fix", "0-0");
    const second = model.view.calls[1]!;
    const d = callDetailSchema.parse(callDetail(model, second.model_call_id));
    expect(d.prompt!.inherited_len).toBe(
      model.view.calls[0]!.prompt_len + model.view.calls[0]!.generated_len,
    );
    expect(d.prompt!.interstitial).toContain("<tool_response>");
    expect(d.prompt!.inherited_tail).toContain("</tool_call>");
    expect(d.generation).toContain("The command printed");
    expect(d.output_items.length).toBeGreaterThan(0);
    expect(d.exchanges[0]).toMatchObject({ status_code: 200, error_body: null });
  });
});
