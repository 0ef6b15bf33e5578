import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "fixtures/**/*.test.ts", "components/**/*.test.{ts,tsx}", "app/**/*.test.ts"],
    environment: "node",
    pool: "threads",
    testTimeout: 30_000,
  },
});
