#!/usr/bin/env node
// Entry for `npx rollout-lens`: runs the TypeScript CLI through tsx (which also resolves "@/" paths).
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
