import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { hashToken } from "@/lib/crypto/tokens";
import { runScript } from "../../helpers/run-script";
import { createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

let database: TestDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "optigate-cli-"));

function metadataFile(name: string, content: unknown): string {
  const file = path.join(directory, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const admin = (...args: string[]) => runAdmin(database.db, args);

/** Every table the CLI may write to, to prove a failed command wrote nothing. */
async function counts() {
  const { db } = database;
  return Promise.all([
    db.client.count(),
    db.clientSecret.count(),
    db.auditEvent.count(),
    db.clientSecret.count({ where: { disabledAt: { not: null } } }),
  ]);
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe(`operator CLI on ${testProvider()}`, () => {
  it("adds, lists, shows, adds and disables secrets, and removes a client", async () => {
    const added = await admin(
      "clients",
      "add",
      metadataFile("shop.json", {
        client_id: "lens-shop",
        client_name: "Lens shop",
        "client_name#de": "Glasladen",
        redirect_uris: ["https://shop.example.com/callback"],
        offline_access: true,
      }),
    );
    expect(added.code).toBe(0);
    const registered = JSON.parse(added.stdout);
    expect(registered).toMatchObject({
      client_id: "lens-shop",
      client_name: "Lens shop",
      "client_name#de": "Glasladen",
      token_endpoint_auth_method: "client_secret_basic",
      client_secret_expires_at: 0,
    });
    expect(Buffer.from(registered.client_secret, "base64url")).toHaveLength(32);
    const stored = await database.db.clientSecret.findMany({ where: { clientId: "lens-shop" } });
    expect(stored.map((s) => s.secretHash)).toEqual([hashToken(registered.client_secret)]);

    const listed = await admin("clients", "list");
    expect(listed.stdout).toMatch(/lens-shop\s+web\s+authorization_code,refresh_token\s+approved\s+Lens shop/);

    const secret = await admin(
      "clients",
      "secret",
      "add",
      "lens-shop",
      "--expires",
      "2099-01-01T00:00:00Z",
      "--description",
      "rotation 2099",
    );
    expect(secret.code).toBe(0);
    const { secret_id, client_secret } = JSON.parse(secret.stdout);
    expect(client_secret).not.toBe(registered.client_secret);

    expect((await admin("clients", "secret", "disable", "lens-shop", registered.client_secret_id)).code).toBe(0);
    const shown = JSON.parse((await admin("clients", "show", "lens-shop")).stdout);
    expect(shown.client_kind).toBe("web");
    expect(shown.secrets).toEqual([
      expect.objectContaining({ id: registered.client_secret_id, status: "disabled" }),
      expect.objectContaining({
        id: secret_id,
        status: "active",
        description: "rotation 2099",
        expires_at: "2099-01-01T00:00:00.000Z",
      }),
    ]);
    expect(JSON.stringify(shown)).not.toContain(client_secret);
    // A day alone is the end of that day (UTC), as on the operator pages.
    const dayOnly = JSON.parse(
      (await admin("clients", "secret", "add", "lens-shop", "--expires", "2099-06-30")).stdout,
    );
    expect(JSON.parse((await admin("clients", "show", "lens-shop")).stdout).secrets).toContainEqual(
      expect.objectContaining({ id: dayOnly.secret_id, expires_at: "2099-06-30T23:59:59.000Z" }),
    );

    const audit = await database.db.auditEvent.findMany({ where: { clientId: "lens-shop" } });
    expect(audit.map((e) => e.type).sort()).toEqual([
      "client.registered",
      "client.secret_added",
      "client.secret_added",
      "client.secret_added",
      "client.secret_disabled",
    ]);

    expect((await admin("clients", "remove", "lens-shop")).code).toBe(0);
    expect(await database.db.client.findUnique({ where: { id: "lens-shop" } })).toBeNull();
    expect(await database.db.clientSecret.count({ where: { clientId: "lens-shop" } })).toBe(0);
  });

  it("says before the JSON that the secret is shown once, and shows a backend client's kind without application_type", async () => {
    const added = await admin(
      "clients",
      "add",
      metadataFile("erp.json", {
        client_id: "lens-erp",
        grant_types: ["client_credentials"],
        scope: "platform.catalogs.read",
      }),
    );
    expect(added.code).toBe(0);
    // The notes go to stderr, so that stdout stays the JSON that scripts parse.
    expect(added.stderrLines).toEqual([
      "Registered lens-erp as a backend service.",
      "Save the client_secret below now: it is shown only this once (OptiGate keeps only its hash).",
    ]);
    const registered = JSON.parse(added.stdout);
    expect(registered).toMatchObject({ client_id: "lens-erp", client_kind: "backend" });
    expect(registered).not.toHaveProperty("application_type");
    expect(JSON.parse((await admin("clients", "show", "lens-erp")).stdout)).not.toHaveProperty("application_type");

    const secret = await admin("clients", "secret", "add", "lens-erp");
    expect(secret.stderrLines).toEqual([
      "Save the client_secret below now: it is shown only this once (OptiGate keeps only its hash).",
    ]);
    expect(JSON.parse(secret.stdout).client_secret).toEqual(expect.any(String));
  });

  it("updates a client's metadata from a file, as the edit form and the management API do", async () => {
    const web = { client_id: "lens-update", client_name: "Lens update", redirect_uris: ["https://u.example/cb"] };
    expect((await admin("clients", "add", metadataFile("update-add.json", web))).code).toBe(0);
    const changed = {
      client_name: "Lens update GmbH",
      redirect_uris: ["https://u.example/cb", "https://u.example/cb2"],
    };
    const updated = await admin("clients", "update", "lens-update", metadataFile("update.json", changed));
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderrLines).toEqual(["Updated lens-update (server web app)."]);
    expect(JSON.parse(updated.stdout)).toMatchObject({ client_id: "lens-update", ...changed });

    // What `clients show` prints goes back as it is: its server fields (kind, status, secrets) are ignored.
    const shown = JSON.parse((await admin("clients", "show", "lens-update")).stdout);
    expect(shown.client_name).toBe("Lens update GmbH");
    const roundTrip = { ...shown, client_name: "Lens update AG" };
    const again = await admin("clients", "update", "lens-update", metadataFile("update-shown.json", roundTrip));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse((await admin("clients", "show", "lens-update")).stdout).secrets).toEqual(shown.secrets);

    const before = await counts();
    const refusals: [string[], number, string][] = [
      [["lens-update"], 2, "error: clients update needs <file.json>"],
      [["nobody", metadataFile("u1.json", changed)], 1, 'error: no client with client_id "nobody"'],
      [
        ["lens-update", metadataFile("u2.json", { ...changed, client_id: "other" })],
        1,
        `error: invalid_client_metadata: client_id "other" is not this client's ("lens-update")`,
      ],
      [
        ["lens-update", metadataFile("u3.json", { ...changed, token_endpoint_auth_method: "none" })],
        1,
        "error: invalid_client_metadata: allowed_cors_origins must list",
      ],
      [["lens-update", metadataFile("u4.json", "{ nope")], 1, "is not valid JSON"],
      [["lens-update", "/nonexistent/u.json"], 1, "error: file not found: /nonexistent/u.json"],
    ];
    for (const [args, code, message] of refusals) {
      const result = await admin("clients", "update", ...args);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderrLines).toHaveLength(1);
      expect(result.stderrLines[0]).toContain(message);
    }
    expect(await counts()).toEqual(before);
  });

  it("lists the signing keys under a header, and says what purge removed in words", async () => {
    await admin("keys", "rotate");
    const listed = (await admin("keys", "list")).stdout.split("\n");
    expect(listed[0]).toMatch(/^ALGORITHM +KID +CREATED +STATE$/);
    expect(listed.slice(1)).toContainEqual(expect.stringMatching(/^RS256 +\S+ +\d{4}-\d\d-\d\d \d\d:\d\d +active$/));
    const purged = await admin("purge");
    expect(purged.drawn).toEqual([]); // stderr is no terminal: no progress line
    expect(purged.stdout).toMatch(
      /^Removed \d+ refresh tokens?, \d+ authorization codes?, \d+ tickets?, \d+ sign-in prompts?, \d+ sign-in sessions?, \d+ throttle counters?, \d+ used assertion ids?, \d+ account links?, \d+ sign-in notice links?, \d+ unsent password reset requests?, \d+ passkey challenges?, \d+ pushed authorization requests?, \d+ device sign-in requests?, \d+ old audit events?\.$/,
    );
  });

  it("registers a public client without a secret and assigns a client_id when none is given", async () => {
    const added = await admin(
      "clients",
      "add",
      metadataFile("native.json", { application_type: "native", redirect_uris: ["com.example.lens:/cb"] }),
    );
    expect(added.code).toBe(0);
    expect(added.stderrLines).toEqual([expect.stringMatching(/^Registered \S+ as a native app\.$/)]);
    const registered = JSON.parse(added.stdout);
    expect(registered.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(registered.client_secret).toBeUndefined();
    expect(await database.db.clientSecret.count({ where: { clientId: registered.client_id } })).toBe(0);
    const secret = await admin("clients", "secret", "add", registered.client_id);
    expect(secret.stderrLines).toEqual([
      `error: client "${registered.client_id}" is a public client and has no secrets`,
    ]);
  });

  it.each([
    [["clients", "add", "/nonexistent/client.json"], 1, "error: file not found: /nonexistent/client.json"],
    [
      ["clients", "add", "TYPO"],
      1,
      'error: invalid_client_metadata: unknown field "redirect_uri" (did you mean "redirect_uris"?)',
    ],
    [["clients", "add", "BROKEN"], 1, "is not valid JSON"],
    [["clients", "add", "HTTP"], 1, "error: invalid_redirect_uri: redirect_uris[0]"],
    [
      ["clients", "add", "BACKEND_OPENID"],
      1,
      'error: invalid_client_metadata: backend clients act for no user and cannot have the scope "openid"',
    ],
    [["clients", "add", "DUPLICATE"], 1, 'error: client_id "taken" is already registered'],
    [["clients", "show", "nobody"], 1, 'error: no client with client_id "nobody"'],
    [["clients", "remove", "nobody"], 1, 'error: no client with client_id "nobody"'],
    [
      ["clients", "secret", "disable", "taken", "no-such-secret"],
      1,
      'error: client "taken" has no secret with id "no-such-secret"',
    ],
    [["clients", "secret", "add", "taken", "--expires", "tomorrow"], 2, "error: --expires needs an ISO 8601 date"],
    [
      ["clients", "secret", "add", "taken", "--expires", "2001-01-01"],
      1,
      "error: a new secret's expiry must lie in the future",
    ],
    [["clients", "frobnicate"], 2, 'error: unknown command "clients frobnicate"'],
    [["keys", "explode"], 2, 'error: unknown command "keys explode"'],
    [["certificates"], 2, 'error: unknown command "certificates"'],
    [["client", "list"], 2, 'error: unknown command "client list" (did you mean "clients list"?)'],
    [["clients", "lst"], 2, 'error: unknown command "clients lst" (did you mean "clients list"?)'],
    [["clients"], 2, "error: clients needs a command: add, list, show, secret, remove"],
    [
      ["catalogs", "release", "DLAG", "catalog.xml"],
      2,
      "error: catalogs release needs <revision> (usage: npm run admin -- catalogs release <supplierID> <catalogID> <revision>)",
    ],
    [["clients", "show", "taken", "extra"], 2, 'error: unexpected argument "extra"'],
    [["clients", "secret", "add", "--expires", "2099-01-01"], 2, "error: clients secret add needs <client_id>"],
  ])("%j fails with one clear line and writes nothing", async (args, code, message) => {
    if (!(await database.db.client.findUnique({ where: { id: "taken" } }))) {
      expect(
        (
          await admin(
            "clients",
            "add",
            metadataFile("taken.json", { client_id: "taken", redirect_uris: ["https://t.example/cb"] }),
          )
        ).code,
      ).toBe(0);
    }
    const files: Record<string, string> = {
      BROKEN: metadataFile("broken.json", "{ not json"),
      HTTP: metadataFile("http.json", { redirect_uris: ["http://shop.example.com/cb"] }),
      BACKEND_OPENID: metadataFile("backend.json", {
        grant_types: ["client_credentials"],
        scope: "openid platform.catalogs.read",
      }),
      DUPLICATE: metadataFile("duplicate.json", { client_id: "taken", redirect_uris: ["https://t.example/cb"] }),
      TYPO: metadataFile("typo.json", { redirect_uri: "https://t.example/cb" }),
    };
    const before = await counts();
    const result = await admin(...args.map((arg) => files[arg] ?? arg));
    expect(result.code).toBe(code);
    expect(result.stderrLines).toHaveLength(1);
    expect(result.stderrLines[0]).toContain(message);
    expect(await counts()).toEqual(before);
  });
});

describe("npm run admin (the real process)", () => {
  const runCli = (args: string[]) =>
    runScript("scripts/admin.ts", args, { DATABASE_URL: database.target.url, SECRET_KEY: "s".repeat(40) });

  it("prints the registered client with its secret once, and exits 1 with one line on bad input", async () => {
    const ok = await runCli([
      "clients",
      "add",
      metadataFile("batch.json", {
        client_id: "batch",
        grant_types: ["client_credentials"],
        scope: "platform.catalogs.read",
      }),
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      client_id: "batch",
      grant_types: ["client_credentials"],
      scope: "platform.catalogs.read",
    });
    const bad = await runCli(["clients", "add", metadataFile("bad.json", { grant_types: ["client_credentials"] })]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toEqual([
      "error: invalid_client_metadata: scope is required for backend clients (the platform API scopes it may use)",
    ]);
    expect(bad.stdout).toBe("");
  });

  it("stops with one line naming a bad configuration variable", async () => {
    const result = await runScript("scripts/admin.ts", ["clients", "list"], { DATABASE_URL: "mysql://db/x" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Configuration error: DATABASE_URL must start with file: (SQLite), postgresql:// or postgres:// (got "mysql://db/x")',
    );
  });
});
