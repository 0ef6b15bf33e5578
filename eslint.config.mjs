import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { publicFaces } from "./eslint-rules/public-faces.mjs";

// The layers (docs/architecture.md): app → components → lib. lib never imports React, Next or
// lib/http (which only maps lib's errors to statuses); components never import app.
const reactAndNext = [
  {
    group: ["react", "react/*", "react-dom", "react-dom/*"],
    message: "lib is free of React: views live in components/.",
  },
  { group: ["next", "next/*"], message: "lib is free of Next: routes and pages live in app/." },
  { group: ["@tanstack/react-*", "recharts"], message: "lib is free of UI libraries." },
];
const noApp = {
  group: ["@/app", "@/app/*"],
  message: "Nothing imports app/: app → components → lib.",
};
const noComponents = {
  group: ["@/components", "@/components/*"],
  message: "lib never imports components/.",
};
const noHttp = {
  group: ["@/lib/http", "@/lib/http/*"],
  message: "lib/http only maps lib's errors to statuses; throw errors from @/lib/errors instead.",
};
const LAYERS = [
  ["schema", "text", "cache", "experts"],
  ["builder"],
  ["store"],
  ["tokens"],
  ["severity"],
  ["view"],
  ["runs"],
  ["rollout"],
  ["index"],
  ["trainer"],
  ["ledger"],
  ["inspect", "health"],
  ["compare", "diff"],
];
const noUpper = (...names) =>
  names.map((n) => ({
    group: [`@/lib/${n}`, `@/lib/${n}/*`],
    message: `this layer sits below lib/${n}; move the shared code down instead.`,
  }));

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  // useReactTable / useVirtualizer return unstable objects by design; the rule only warns about that.
  { rules: { "react-hooks/incompatible-library": "off" } },
  // lib/testing holds the tests' references and helpers: product code never imports it.
  {
    files: ["{app,components,lib,cli}/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.{ts,tsx}", "lib/testing/**"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        { zones: [{ target: ".", from: "./lib/testing", message: "test code only." }] },
      ],
    },
  },
  // Source files stay under 300 lines, split by concept (docs/architecture.md). Tests too.
  {
    files: ["{app,components,lib,cli}/**/*.{ts,tsx,mjs}"],
    rules: { "max-lines": ["error", { max: 300 }] },
  },
  {
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    ignores: ["lib/http/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...reactAndNext, noApp, noComponents, noHttp] },
      ],
    },
  },
  {
    files: ["lib/http/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...reactAndNext.slice(0, 1), noApp, noComponents] },
      ],
    },
  },
  // The layers of lib, lowest first (docs/architecture.md). A folder imports only folders of the
  // layers below its own: never a sibling in its layer, never a layer above.
  ...LAYERS.flatMap((layer, i) =>
    layer.map((name) => ({
      files: [`lib/${name}/**/*.{ts,tsx,mts,mjs}`],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              ...reactAndNext,
              noApp,
              noComponents,
              noHttp,
              ...noUpper(...LAYERS.slice(i + 1).flat(), ...layer.filter((n) => n !== name)),
            ],
          },
        ],
      },
    })),
  ),
  // A folder of lib is imported through its face (index.ts, or pure.ts from the browser), never a
  // file inside it (eslint-rules/public-faces). Tests and lib/testing may reach inside.
  {
    files: ["{app,components,lib,cli,bench}/**/*.{ts,tsx,mts,mjs}"],
    ignores: ["**/*.test.{ts,tsx}", "lib/testing/**"],
    plugins: { lens: { rules: { "public-faces": publicFaces } } },
    rules: { "lens/public-faces": "error" },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [noApp, noHttp] }] },
  },
  globalIgnores([
    ".next/**",
    "out/**",
    "dist/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "reports/**",
    "bench/out/**",
  ]),
]);
