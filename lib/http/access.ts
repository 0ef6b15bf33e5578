// Access control and security headers, as pure functions the proxy calls. Without
// ROLLOUT_LENS_TOKEN the server only binds to loopback (the CLI refuses otherwise) and every request
// is allowed; with it, every route and page needs the token: an `Authorization: Bearer` header, the
// cookie, or `?token=` once (which sets the cookie and redirects to the same URL without it).
import { timingSafeEqual } from "node:crypto";

export const TOKEN_COOKIE = "rollout_lens_token";

export type Access =
  { kind: "allow" } | { kind: "deny"; message: string } | { kind: "set-cookie"; location: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a),
    y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function checkAccess(
  url: URL,
  headers: Headers,
  cookie: string | undefined,
  token: string | undefined,
): Access {
  if (!token) return { kind: "allow" };
  const bearer = /^Bearer (.+)$/.exec(headers.get("authorization") ?? "")?.[1];
  if ((bearer && same(bearer, token)) || (cookie && same(cookie, token))) return { kind: "allow" };
  const fromQuery = url.searchParams.get("token");
  if (fromQuery && same(fromQuery, token)) {
    const clean = new URL(url);
    clean.searchParams.delete("token");
    return { kind: "set-cookie", location: clean.pathname + clean.search };
  }
  return {
    kind: "deny",
    message:
      "This Rollout Lens needs an access token: open it with ?token=<ROLLOUT_LENS_TOKEN> once, or send Authorization: Bearer <token>.",
  };
}

/** A strict CSP: scripts only from this origin with the per-request nonce (Next applies it to its own scripts). */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes come from React and the virtualised lists (positions); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
