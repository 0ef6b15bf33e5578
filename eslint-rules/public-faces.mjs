// Lint rule: a folder of lib is imported from outside through its public face, never a file inside
// it. The face is the folder's index.ts, or its pure.ts (the parts that touch no file, database
// or Node API, for browser components). Inside a folder, files import each other directly; a
// subfolder (lib/index/shards) has a face of its own for its parent's files. docs/architecture.md.
import { existsSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const FACES = ["index", "pure"];
const EXTS = [".ts", ".tsx", ".mts", ".mjs"];

/** The repo-relative file an import names (without extension), or null outside the repo. */
function target(fromFile, spec) {
  let abs;
  if (spec.startsWith("@/")) abs = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith(".")) abs = path.resolve(path.dirname(fromFile), spec);
  else return null;
  const isDir =
    !EXTS.some((e) => existsSync(abs + e)) && existsSync(abs) && statSync(abs).isDirectory();
  const file = isDir ? path.join(abs, "index") : abs.replace(/\.(tsx?|mts|mjs)$/, "");
  return path.relative(ROOT, file).split(path.sep).join("/");
}

/** The folder whose face the import must go through, or null when it may stay as it is. */
export function faceNeeded(importer, file) {
  const parts = file.split("/");
  if (parts[0] !== "lib" || parts[1] === "testing") return null;
  for (let i = 2; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (importer.startsWith(dir + "/")) continue;
    return FACES.some((f) => file === `${dir}/${f}`) ? null : dir;
  }
  return null;
}

export const publicFaces = {
  meta: {
    type: "problem",
    messages: {
      deep: '"{{spec}}" reaches inside {{dir}}: import its face "{{face}}" (index.ts; pure.ts for a browser component).',
    },
    schema: [],
  },
  create(context) {
    const importer = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const spec = node.source.value;
      const file = target(context.filename, spec);
      if (!file) return;
      const dir = faceNeeded(importer, file);
      if (dir)
        context.report({
          node: node.source,
          messageId: "deep",
          data: { spec, dir, face: `@/${dir}` },
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
