import { describe, expect, it } from "vitest";
import { checkAccess, contentSecurityPolicy } from "./access";

const url = (u: string) => new URL(`http://127.0.0.1:3123${u}`);
const none = new Headers();

describe("access token", () => {
  it("allows everything without a configured token", () => {
    expect(checkAccess(url("/"), none, undefined, undefined)).toEqual({ kind: "allow" });
  });
  it("accepts the bearer header or the cookie, and nothing else", () => {
    expect(
      checkAccess(url("/api/runs"), new Headers({ authorization: "Bearer t0k" }), undefined, "t0k")
        .kind,
    ).toBe("allow");
    expect(checkAccess(url("/api/runs"), none, "t0k", "t0k").kind).toBe("allow");
    for (const [h, c] of [
      [new Headers({ authorization: "Bearer t0" }), undefined],
      [new Headers({ authorization: "t0k" }), undefined],
      [none, "t0kk"],
      [none, ""],
    ] as const) {
      expect(checkAccess(url("/api/runs"), h, c, "t0k")).toMatchObject({
        kind: "deny",
        message: expect.stringContaining("needs an access token"),
      });
    }
  });
  it("?token= once sets the cookie and redirects to the same URL without it", () => {
    expect(checkAccess(url("/runs/a?tab=call&token=t0k&call=x"), none, undefined, "t0k")).toEqual({
      kind: "set-cookie",
      location: "/runs/a?tab=call&call=x",
    });
    expect(checkAccess(url("/runs/a?token=nope"), none, undefined, "t0k").kind).toBe("deny");
  });
  it("the CSP allows scripts only by nonce", () => {
    const csp = contentSecurityPolicy("abc", false);
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(contentSecurityPolicy("abc", true)).toContain("'unsafe-eval'");
  });
});
