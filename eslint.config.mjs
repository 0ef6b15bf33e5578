import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  // useReactTable / useVirtualizer return unstable objects by design; the rule only warns about that.
  { rules: { "react-hooks/incompatible-library": "off" } },
  globalIgnores([".next/**", "out/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "reports/**", "bench/out/**"]),
]);
