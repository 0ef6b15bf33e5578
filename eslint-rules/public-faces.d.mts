// Types of ./public-faces.mjs for the test that runs it.
import type { Rule } from "eslint";

export function faceNeeded(importer: string, file: string): string | null;
export const publicFaces: Rule.RuleModule;
