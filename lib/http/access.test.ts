import { describe, expect, it } from "vitest";
import {
  checkAccess,
  checkHost,
  contentSecurityPolicy,
  decideRequest,
  malformedPath,
  parseAllowedHosts,
} from "./access";

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

const PORT = "3123";
const host = (h: string | null, allowed: string[] = [], port: string | null = PORT) =>
  checkHost(h, port, allowed);

describe("Host check (DNS rebinding), without a token", () => {
  it("answers loopback names and addresses on the server's port", () => {
    for (const h of [
      "127.0.0.1:3123",
      "localhost:3123",
      "LOCALHOST:3123",
      "[::1]:3123",
      "127.0.0.2:3123",
      "127.255.255.254:3123",
      "localhost:03123",
    ])
      expect(host(h), h).toBeNull();
  });

  it("refuses other names, wrong ports, lookalikes and other spellings of loopback", () => {
    for (const h of [
      "evil.example",
      "evil.example:3123",
      "127.0.0.1.evil.example:3123",
      "localhost.evil.example:3123",
      "evil.localhost.example:3123",
      "127.0.0.1:3124",
      "localhost",
      "[::1]:80",
      "[::ffff:127.0.0.1]:3123",
      "[::ffff:7f00:1]:3123",
      "[0:0:0:0:0:0:0:1]:3123",
      "127.1:3123",
      "0177.0.0.1:3123",
      "0x7f.0.0.1:3123",
      "127.0.0.01:3123",
      "127.0.0.256:3123",
      "2130706433:3123",
      "0.0.0.0:3123",
      "localhost.:3123",
      "::1:3123",
      "127.0.0.1:3123@evil.example",
      "",
      "127.0.0.1:3123 ",
    ])
      expect(host(h), h).toMatch(/^Blocking a request for Host /);
    expect(host(null)).toMatch(/^Blocking a request for Host \(none\)/);
  });

  it("says how to allow the name, as Jupyter does", () => {
    expect(host("Box.Lan:9000")).toBe(
      'Blocking a request for Host "Box.Lan:9000": without ROLLOUT_LENS_TOKEN, Rollout Lens answers ' +
        "only loopback names (localhost, 127.0.0.1, [::1]) on port 3123, so that no web page can " +
        "reach it by pointing a name of its own at this machine (DNS rebinding). If you reach it by " +
        "this name on purpose (a tunnel, a proxy), allow it: rollout-lens serve --allowed-host " +
        "box.lan:9000, or ROLLOUT_LENS_ALLOWED_HOSTS=box.lan:9000 npm start.",
    );
  });

  it("answers allowed hosts: a name on any port, or a name:port exactly", () => {
    const allowed = parseAllowedHosts(" Box.Lan , tunnel:9000,,[::1]:8080");
    expect(allowed).toEqual(["box.lan", "tunnel:9000", "[::1]:8080"]);
    for (const h of ["box.lan:3123", "BOX.LAN:8443", "box.lan", "tunnel:9000", "[::1]:8080"])
      expect(host(h, allowed), h).toBeNull();
    for (const h of ["tunnel:9001", "tunnel", "box.lan.evil.example:3123", "evil.example:3123"])
      expect(host(h, allowed), h).not.toBeNull();
  });

  it("accepts any port on loopback when the server's port is unknown", () => {
    expect(host("localhost:9999", [], null)).toBeNull();
    expect(host("evil.example:9999", [], null)).not.toBeNull();
  });
});

describe("the proxy's decision", () => {
  const server = { token: undefined, port: PORT, allowedHosts: [] };
  const request = (u: string, h: Record<string, string>, method = "GET") => ({
    url: new URL(`http://127.0.0.1:3123${u}`),
    method,
    headers: new Headers(h),
    cookie: undefined,
  });

  it("refuses a foreign Host with 403 without a token, and leaves it to the token with one", () => {
    const evil = request("/api/runs", { host: "evil.example:3123" });
    expect(decideRequest(evil, server)).toMatchObject({ kind: "refuse", status: 403 });
    expect(decideRequest(request("/api/runs", { host: "localhost:3123" }), server)).toEqual({
      kind: "allow",
    });
    const withToken = { ...server, token: "t0k" };
    expect(decideRequest(evil, withToken).kind).toBe("deny");
    const bearer = request("/api/runs", { host: "evil.example", authorization: "Bearer t0k" });
    expect(decideRequest(bearer, withToken)).toEqual({ kind: "allow" });
  });

  it("refuses non-GET requests from another origin, and opaque origins", () => {
    const local = { host: "127.0.0.1:3123" };
    for (const origin of ["http://evil.example", "null", "http://127.0.0.1:3124"])
      expect(
        decideRequest(request("/", { ...local, origin }, "POST"), server),
        origin,
      ).toMatchObject({
        kind: "refuse",
        status: 403,
        message: expect.stringMatching(/^Blocking a POST/),
      });
    expect(
      decideRequest(request("/", { ...local, origin: "http://127.0.0.1:3123" }, "POST"), server),
    ).toEqual({ kind: "allow" });
    expect(
      decideRequest(request("/", { ...local, origin: "http://evil.example" }), server),
    ).toEqual({ kind: "allow" });
  });

  it("answers a path that is not valid percent-encoded UTF-8 with 400", () => {
    for (const p of ["/runs/%C0%AE", "/api/runs/a%ZZ/health", "/runs/%E0%A4%A", "/%", "/runs/%ff"])
      expect(decideRequest(request(p, { host: "localhost:3123" }), server), p).toMatchObject({
        kind: "refuse",
        status: 400,
        message: expect.stringMatching(/^malformed URL: the path segment ".*" is not valid/),
      });
    for (const p of ["/runs/a%2Fb", "/runs/%E2%9C%93", "/runs/%2e%2e", "/api/runs?x=%ZZ"])
      expect(decideRequest(request(p, { host: "localhost:3123" }), server).kind, p).toBe("allow");
    expect(malformedPath("/runs/ok")).toBeNull();
  });
});
