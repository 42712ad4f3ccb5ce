/**
 * The Auth.js snippet is the provider of OptiGate's Auth.js example (examples/nextjs-authjs), word for word, and the
 * `.env` it comes with, rendered for the demo's registration of that example, holds the example's own settings: so
 * the example's browser test (npm run test:example) runs the snippet as the quick start shows it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { quickStartGuide } from "@/lib/quick-start/quick-start-guide";
import { demoClients } from "@/prisma/demo-data";
import { valuesOf } from "./quick-start-fixtures";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/nextjs-authjs");
const exampleEnv = parseEnv(readFileSync(path.join(EXAMPLE, ".env"), "utf8"));

function exampleGuide() {
  const registered = demoClients("platform").find(
    ({ metadata }) => metadata.client_id === exampleEnv.OPTIGATE_CLIENT_ID,
  );
  const guide = quickStartGuide(valuesOf(registered!.metadata, exampleEnv.OPTIGATE_ISSUER));
  const authjs = guide.snippets.find(({ id }) => id === "authjs")!;
  return { guide, authjs, file: (name: string) => authjs.files.find((file) => file.name === name)!.text };
}

describe("the Auth.js snippet and the Auth.js example", () => {
  it("is the example's provider, word for word", () => {
    expect(exampleGuide().file("lib/auth.ts")).toBe(readFileSync(path.join(EXAMPLE, "lib/auth.ts"), "utf8"));
  });

  it("comes with the example's settings, for the demo's registration of the example", () => {
    const { guide, authjs } = exampleGuide();
    const rendered = {
      ...parseEnv(guide.env.text),
      ...parseEnv(authjs.files.find((file) => file.language === "dotenv")!.text),
    };
    const provider = exampleGuide().file("lib/auth.ts");
    const read = [...provider.matchAll(/process\.env\.(\w+)/g)].map((match) => match[1]);
    expect(read).toEqual(["OPTIGATE_ISSUER", "OPTIGATE_CLIENT_ID", "OPTIGATE_CLIENT_SECRET", "OPTIGATE_SCOPE"]);
    for (const name of [...read, "NEXTAUTH_URL"].filter((name) => name !== "OPTIGATE_CLIENT_SECRET"))
      expect(rendered[name], name).toBe(exampleEnv[name]);
    // The example's demo secret is the one thing the quick start never fills in.
    expect(exampleEnv.OPTIGATE_CLIENT_SECRET).toBeTruthy();
    expect(rendered.OPTIGATE_CLIENT_SECRET).not.toBe(exampleEnv.OPTIGATE_CLIENT_SECRET);
  });
});
