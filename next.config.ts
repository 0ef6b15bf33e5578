import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The npm package runs .next/standalone/server.js (scripts/build-package.mjs sets this), so its
  // users need no build; the clone's `npm run build` leaves it off and `next start` serves as ever.
  ...(process.env.ROLLOUT_LENS_STANDALONE === "1" ? { output: "standalone" as const } : {}),
  serverExternalPackages: ["better-sqlite3"],
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
