// Runs before every route and page: the access token (when ROLLOUT_LENS_TOKEN is set), then a
// nonce-based Content Security Policy for pages. Logic lives in lib/http/access.
import { NextResponse, type NextRequest } from "next/server";
import { checkAccess, contentSecurityPolicy, TOKEN_COOKIE } from "@/lib/http/access";

export function proxy(request: NextRequest) {
  const access = checkAccess(
    request.nextUrl,
    request.headers,
    request.cookies.get(TOKEN_COOKIE)?.value,
    process.env.ROLLOUT_LENS_TOKEN,
  );
  if (access.kind === "deny")
    return new NextResponse(access.message, {
      status: 401,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  if (access.kind === "set-cookie") {
    const res = NextResponse.redirect(new URL(access.location, request.url), 303);
    res.cookies.set(TOKEN_COOKIE, process.env.ROLLOUT_LENS_TOKEN as string, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
    });
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
