#!/usr/bin/env node
// Entry for `npx rollout-lens`: runs the built CLI, dist/cli.mjs (`npm run build` makes it from
// cli/main.ts). When it is missing it is built here if the build tools are installed; otherwise
// one line says what to run.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.mjs", import.meta.url);
if (!existsSync(cli)) {
  try {
    const { buildNode } = await import("../scripts/build-node.mjs");
    await buildNode();
  } catch (err) {
    process.stderr.write(
      `rollout-lens: dist/cli.mjs is missing and could not be built (${err instanceof Error ? err.message : err}); run \`npm run build\` first\n`,
    );
    process.exit(1);
  }
}
await import(cli.href);
