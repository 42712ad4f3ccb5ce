/** Every registration file of docs/relying-parties.md registers with `clients add`, as the kind its section names. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

const GUIDE = readFileSync(path.join(import.meta.dirname, "../../../docs/relying-parties.md"), "utf8");
const directory = mkdtempSync(path.join(tmpdir(), "optigate-guide-"));
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The JSON blocks of the guide, each with the heading of its section. */
function registrations(): {
  section: string;
  metadata: { client_id: string; dpop_bound_access_tokens?: boolean };
}[] {
  return GUIDE.split(/^## /m)
    .slice(1)
    .flatMap((section) =>
      [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((block) => ({
        section: section.split("\n", 1)[0],
        metadata: JSON.parse(block[1]),
      })),
    );
}

describe(`the relying-party guide's registrations on ${testProvider()}`, () => {
  it("are accepted by the operator CLI as in production, each as the kind of its section", async () => {
    const expected: Record<string, string> = {
      "Browser app (SPA): code + PKCE": "browser",
      "Native app (desktop, mobile): code + PKCE, loopback or private-use scheme": "native",
      "Server web app: code + secret (or keys)": "web",
      "Backend service: client credentials": "backend",
      "Resource indicators (RFC 8707): a token for one API": "backend",
      "Legacy browser app: implicit": "browser",
      "Keys instead of bearer tokens: DPoP and pushed requests (PAR)": "native",
      "Device sign-in: the device authorization grant (RFC 8628)": "native",
    };
    const found = registrations();
    expect(found.map((entry) => entry.section)).toEqual(Object.keys(expected));
    for (const { section, metadata } of found) {
      const file = path.join(directory, `${metadata.client_id}.json`);
      writeFileSync(file, JSON.stringify(metadata));
      const result = await runAdmin(database.db, ["clients", "add", file], { production: true });
      expect(result.code, `${section}: ${result.stderr}`).toBe(0);
      const row = await database.db.client.findUniqueOrThrow({ where: { id: metadata.client_id } });
      expect(row.kind, section).toBe(expected[section]);
      expect(row.dpopBoundAccessTokens, section).toBe(metadata.dpop_bound_access_tokens ?? false);
    }
  });
});
