// Access control and security headers, as pure functions the proxy calls. Without
// ROLLOUT_LENS_TOKEN the server binds to loopback only (the CLI refuses otherwise) and answers only
// loopback Host names (against DNS rebinding) and any the user allowed; with it, every route and page needs the
// token: an `Authorization: Bearer` header, the cookie, or `?token=` once (which sets the cookie and
// redirects to the same URL without it). Reading the environment is the proxy's job.
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

/** A strict CSP for the proxy's own plain-text answers (403, 400): nothing may load or run. */
export const PLAIN_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Why a path cannot be served, or null: each segment must percent-decode to valid UTF-8 (`%C0%AE`,
 * `%ZZ` and a cut-off `%E0%A4` are refused here, before Next's route matching fails on them).
 */
export function malformedPath(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return `malformed URL: the path segment ${JSON.stringify(segment.slice(0, 80))} is not valid percent-encoded UTF-8`;
    }
  }
  return null;
}

/** What the proxy knows of its server: the token, the listening port, the extra allowed hosts. */
export interface ServerAccess {
  token: string | undefined;
  /** The port the server listens on (`PORT`, set by `next start`/`next dev`); null: any port. */
  port: string | null;
  /** From --allowed-host / ROLLOUT_LENS_ALLOWED_HOSTS: `name` (any port) or `name:port`. */
  allowedHosts: readonly string[];
}

export type Decision = Access | { kind: "refuse"; status: 400 | 403; message: string };

/**
 * Everything the proxy decides before a route or page runs, in order: the Host check (only without
 * a token: with one, a page that rebinds its name to this server has neither the token nor the
 * cookie, which the browser keeps for the real name), the Origin check for non-GET requests, the
 * token, then the path's percent-encoding.
 */
export function decideRequest(
  request: { url: URL; method: string; headers: Headers; cookie: string | undefined },
  server: ServerAccess,
): Decision {
  const host = request.headers.get("host");
  const refusals = [
    server.token ? null : checkHost(host, server.port, server.allowedHosts),
    checkOrigin(request.method, request.headers.get("origin"), host),
  ];
  for (const message of refusals)
    if (message !== null) return { kind: "refuse", status: 403, message };
  const access = checkAccess(request.url, request.headers, request.cookie, server.token);
  if (access.kind !== "allow") return access;
  const malformed = malformedPath(request.url.pathname);
  return malformed === null ? access : { kind: "refuse", status: 400, message: malformed };
}

/** ROLLOUT_LENS_ALLOWED_HOSTS: comma-separated, case-insensitive. */
export function parseAllowedHosts(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
}

/** A Host value's name (IPv6 in brackets) and port (null when absent); null when malformed. */
function splitHost(value: string): { name: string; port: string | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i.exec(value);
  if (!m) return null;
  return {
    name: (m[1] as string).toLowerCase(),
    port: m[2] === undefined ? null : String(Number(m[2])),
  };
}

const OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
/** 127.0.0.0/8 in plain dotted decimal only: no octal, hex, short or IPv4-mapped forms. */
const LOOPBACK_V4 = new RegExp(`^127\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name === "[::1]" || LOOPBACK_V4.test(name);
}

/**
 * Null when `host` may be answered without a token: a loopback name or address on the server's
 * port, or an allowed host. Otherwise the 403 message, which says how to allow the name (as Jupyter
 * does), since a tunnel or a proxy can reach the server by a name of its own.
 */
export function checkHost(
  host: string | null,
  port: string | null,
  allowed: readonly string[],
): string | null {
  const got = host === null ? null : splitHost(host);
  const serverPort = port === null ? null : String(Number(port));
  if (got !== null) {
    const gotPort = got.port ?? "80";
    if (isLoopbackName(got.name) && (serverPort === null || gotPort === serverPort)) return null;
    for (const entry of allowed) {
      const a = splitHost(entry);
      if (a && a.name === got.name && (a.port === null || a.port === gotPort)) return null;
    }
  }
  const shown = host === null ? "(none)" : JSON.stringify(host.slice(0, 100));
  const suggest = got === null ? "NAME" : got.port === null ? got.name : `${got.name}:${got.port}`;
  return (
    `Blocking a request for Host ${shown}: without ROLLOUT_LENS_TOKEN, Rollout Lens answers only ` +
    `loopback names (localhost, 127.0.0.1, [::1])${serverPort ? ` on port ${serverPort}` : ""}, so ` +
    `that no web page can reach it by pointing a name of its own at this machine (DNS rebinding). ` +
    `If you reach it by this name on purpose (a tunnel, a proxy), allow it: ` +
    `rollout-lens serve --allowed-host ${suggest}, or ROLLOUT_LENS_ALLOWED_HOSTS=${suggest} npm start.`
  );
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Null unless a non-GET request comes from another origin (or an opaque one): then the 403 message. */
export function checkOrigin(
  method: string,
  origin: string | null,
  host: string | null,
): string | null {
  if (SAFE_METHODS.has(method.toUpperCase()) || origin === null) return null;
  let from: string | null = null;
  try {
    from = new URL(origin).host.toLowerCase();
  } catch {
    // "null" and other opaque origins are never this server.
  }
  if (from !== null && host !== null && from === host.toLowerCase()) return null;
  return `Blocking a ${method.slice(0, 10)} request from origin ${JSON.stringify(origin.slice(0, 100))}: only this server's own pages may send it.`;
}
