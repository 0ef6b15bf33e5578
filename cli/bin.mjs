#!/usr/bin/env node
// Entry for `npx rollout-lens`: runs the built CLI. In a clone that is dist/cli.mjs (`npm run build`
// makes it from cli/main.ts), built here when it is missing if the build tools are installed. The
// installed package ships it inside its app directory, .next/standalone/dist/cli.mjs
// (scripts/build-package.mjs). Otherwise one line says what to run.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.mjs", import.meta.url);
const packaged = new URL("../.next/standalone/dist/cli.mjs", import.meta.url);
if (!existsSync(cli) && existsSync(packaged)) {
  await import(packaged.href);
} else {
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
}
