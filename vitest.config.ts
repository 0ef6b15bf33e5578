import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests run lib's server modules directly: `server-only` is the empty module it is on the server.
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: [
      "lib/**/*.test.{ts,tsx}",
      "cli/**/*.test.ts",
      "fixtures/**/*.test.ts",
      "components/**/*.test.{ts,tsx}",
      "app/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    environment: "node",
    globalSetup: ["vitest.global-setup.ts"],
    pool: "threads",
    testTimeout: 30_000,
  },
});
