// ESLint for OptiGate: typescript-eslint's recommended rules, no import cycles between modules, and short functions
// (a long function is a module waiting to be split). Formatting is Prettier's job, not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

export default tseslint.config(
  {
    ignores: ["node_modules/", ".next/", "bundle/", "lib/db/generated/", "examples/", "test-results/", "next-env.d.ts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "max-lines-per-function": ["error", { max: 100, skipBlankLines: true, skipComments: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Refusing control characters in names, paths and subjects is what those patterns are for.
      "no-control-regex": "off",
      // Default imports of CommonJS packages (ajv, oidc-provider) are how they are meant to be imported.
      "import-x/no-named-as-default": "off",
      "import-x/no-named-as-default-member": "off",
    },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // Tests are tables and scenarios: a long `describe` is a list of cases, not a function to split.
    // JSON answers are read field by field; typing every body would restate the API's schema in each test.
    files: ["tests/**"],
    rules: { "max-lines-per-function": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
);
