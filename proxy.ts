// Runs before every route and page: the Host check (without a token), the Origin check, the access
// token (when ROLLOUT_LENS_TOKEN is set) and the path's encoding, then a nonce-based Content Security
// Policy for pages. The decisions live in lib/http/access; this file reads the environment and answers.
import { NextResponse, type NextRequest } from "next/server";
import {
  contentSecurityPolicy,
  decideRequest,
  parseAllowedHosts,
  PLAIN_CSP,
  TOKEN_COOKIE,
} from "@/lib/http/access";

/** The proxy's own answers carry the security headers too (next.config adds the rest). */
function plain(status: number, message: string): NextResponse {
  return new NextResponse(message, {
    status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": PLAIN_CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
    },
  });
}

export function proxy(request: NextRequest) {
  const token = process.env.ROLLOUT_LENS_TOKEN;
  const decision = decideRequest(
    {
      url: request.nextUrl,
      method: request.method,
      headers: request.headers,
      cookie: request.cookies.get(TOKEN_COOKIE)?.value,
    },
    {
      token,
      // `next start` and `next dev` set PORT to the port they listen on.
      port: process.env.PORT || null,
      allowedHosts: parseAllowedHosts(process.env.ROLLOUT_LENS_ALLOWED_HOSTS),
    },
  );
  if (decision.kind === "refuse") return plain(decision.status, decision.message);
  if (decision.kind === "deny") return plain(401, decision.message);
  if (decision.kind === "set-cookie" && token) {
    const res = NextResponse.redirect(new URL(decision.location, request.url), 303);
    res.cookies.set(TOKEN_COOKIE, token, { httpOnly: true, sameSite: "strict", path: "/" });
    return res;
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  // Everything but static build assets and the favicon.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
