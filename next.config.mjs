// Plain JavaScript, not next.config.ts: `next start` compiles a TypeScript config with SWC at every
// start, which loads its 24 MB native binding and its threads into the server for the whole of its
// life (VmRSS at start 197 MB with next.config.ts, 171 MB with this file; docs/benchmarks.md).
/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The npm package runs .next/standalone/server.js (scripts/build-package.mjs sets this), so its
  // users need no build; the clone's `npm run build` leaves it off and `next start` serves as ever.
  ...(process.env.ROLLOUT_LENS_STANDALONE === "1" ? { output: "standalone" } : {}),
  // The server reads the runs root, the cache and the worker from process.cwd(), so the file tracer
  // takes in the whole project; what it copies into the standalone output (the npm package's server,
  // scripts/build-package.mjs) must not carry the clone's git objects or the generated bench runs
  // (a GB). Only these: broader globs here also dropped files of next itself from the trace.
  outputFileTracingExcludes: { "*": ["./.git/**/*", "./bench/out/**/*"] },
  // The bundled encoding's rank file, read by path (lib/tokens/token-bytes), not imported.
  outputFileTracingIncludes: { "*": ["./node_modules/gpt-tokenizer/data/o200k_base.tiktoken"] },
  serverExternalPackages: ["better-sqlite3"],
  // `npm test` runs `tsc --noEmit` over the same files (with `next typegen`'s route types) before it
  // builds, and fails there; its build then skips the second check (27 s here). Any other build,
  // `npm run build` and the package's, still checks.
  typescript: { ignoreBuildErrors: process.env.ROLLOUT_LENS_TYPECHECKED === "1" },
  // The pages name app/icon.svg in a <link rel="icon">; a client that asks for /favicon.ico instead
  // (a feed reader, a bookmark, a browser on a page without HTML) gets the same icon, not a 404.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
