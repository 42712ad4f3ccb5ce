/** `npm run admin -- federation …` and private_key_jwt clients from the CLI: each change audited, each refusal writes nothing. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "@/lib/admin/admin-cli";
import { useOAuthService } from "../../helpers/oauth-service";
import { keySet, partnerKey } from "../../helpers/partner-keys";
import { runScript } from "../../helpers/run-script";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const directory = mkdtempSync(path.join(tmpdir(), "optigate-federation-cli-"));
let publicKeys: { keys: unknown[] };

function file(name: string, content: unknown): string {
  const target = path.join(directory, name);
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

async function admin(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand({ db: service().database.db, apiScopePrefix: "platform", secretKey: "s".repeat(40), tokenSigningAlg: "RS256", print: (l) => out.push(l), printError: (l) => err.push(l) }, args);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

const counts = async () => {
  const db = service().database.db;
  return Promise.all([db.trustedIssuer.count(), db.trustedIssuerClient.count(), db.federatedSubject.count(), db.auditEvent.count(), db.client.count()]);
};
const lastEvent = async () => service().database.db.auditEvent.findFirstOrThrow({ where: { type: { startsWith: "federation." } }, orderBy: { occurredAt: "desc" } });

beforeAll(async () => {
  publicKeys = keySet(await partnerKey("ES256", "lens-1"));
});

describe(`federation commands on ${testProvider()}`, () => {
  it("adds, updates, lists, links and removes trusted issuers, each change an audit event", async () => {
    const lens = { issuer: "https://as.lens-maker.example", jwks_uri: "https://as.lens-maker.example/jwks", clients: ["demo-backend"], subject: "email" };
    expect(await admin("federation", "add", file("lens.json", lens))).toMatchObject({ code: 0, stdout: "Trusted issuer https://as.lens-maker.example for demo-backend (subjects by email)." });
    expect((await lastEvent()).type).toBe("federation.issuer_added");
    expect((await admin("federation", "add", file("lens2.json", { ...lens, clients: ["demo-backend", "demo-web"] }))).stdout).toMatch(/^Updated issuer/);
    expect(JSON.parse((await lastEvent()).details)).toMatchObject({ issuer: lens.issuer, clients: ["demo-backend", "demo-web"] });

    const vendor = { issuer: "https://id.vendor.example", jwks: publicKeys, clients: ["demo-web"], subject: "link" };
    expect((await admin("federation", "add", file("vendor.json", vendor))).code).toBe(0);
    expect(await admin("federation", "link", vendor.issuer, "user-9", "Optician@Demo.test")).toMatchObject({ code: 0, stdout: "Linked user-9 at https://id.vendor.example to Optician@Demo.test." });
    expect((await lastEvent()).type).toBe("federation.subject_linked");
    const listed = (await admin("federation", "list")).stdout.split("\n");
    expect(listed).toEqual([
      "https://as.lens-maker.example  keys: https://as.lens-maker.example/jwks  clients: demo-backend,demo-web  subject: email",
      "https://id.vendor.example  keys: inline (1)  clients: demo-web  subject: link (1 linked)",
    ]);

    const before = await counts();
    const refusals: [string[], RegExp][] = [
      [["federation", "link", lens.issuer, "s", "optician@demo.test"], /maps its subjects by verified email/],
      [["federation", "link", vendor.issuer, "s", "nobody@demo.test"], /there is no user "nobody@demo.test"/],
      [["federation", "link", "https://unknown.example", "s", "optician@demo.test"], /is not a trusted issuer/],
      [["federation", "remove", "https://unknown.example"], /is not a trusted issuer/],
      [["federation", "add", file("nobody.json", { ...lens, clients: ["nobody"] })], /there is no client "nobody"/],
      [["federation", "add", file("public.json", { ...lens, clients: ["demo-spa"] })], /is public/],
      [["federation", "add", file("both.json", { ...lens, jwks: publicKeys })], /either jwks_uri or jwks/],
      [["federation", "add", file("http.json", { ...lens, issuer: "http://as.lens-maker.example" })], /must use https/],
      [["federation", "add", file("private.json", { ...vendor, jwks: { keys: [{ ...publicKeys.keys[0] as object, d: "x" }] } })], /private member "d"/],
      [["federation", "add", file("typo.json", { ...lens, client: ["demo-backend"] })], /unknown field "client"/],
      [["federation", "add", file("subject.json", { ...lens, subject: "name" })], /subject must be "email" or "link"/],
      [["federation", "add", file("broken.json", "{")], /not valid JSON/],
    ];
    for (const [args, message] of refusals) {
      const result = await admin(...args);
      expect([result.code, result.stderr], args.join(" ")).toEqual([1, expect.stringMatching(message)]);
    }
    expect(await counts()).toEqual(before);
    expect((await admin("federation", "frobnicate")).code).toBe(2);

    expect(await admin("federation", "remove", vendor.issuer)).toMatchObject({ code: 0, stdout: "Removed trusted issuer https://id.vendor.example." });
    expect((await lastEvent()).type).toBe("federation.issuer_removed");
    expect(await service().database.db.federatedSubject.count()).toBe(0);
  });

  it("registers a private_key_jwt client without a secret, and runs as `npm run admin` does", async () => {
    const metadata = { client_id: "partner-keys", grant_types: ["client_credentials"], token_endpoint_auth_method: "private_key_jwt", scope: "platform.catalogs.read", jwks: publicKeys };
    const added = await admin("clients", "add", file("client.json", metadata));
    expect(added.code).toBe(0);
    const printed = JSON.parse(added.stdout);
    expect(printed).toMatchObject({ client_id: "partner-keys", token_endpoint_auth_method: "private_key_jwt", jwks: publicKeys });
    expect(printed.client_secret).toBeUndefined();
    expect((await admin("clients", "secret", "add", "partner-keys")).stderr).toMatch(/authenticates with its keys/);
    const result = await runScript("scripts/admin.ts", ["federation", "list"], { DATABASE_URL: service().database.target.url, SECRET_KEY: process.env.SECRET_KEY });
    expect([result.code, result.stdout.trim()]).toEqual([0, expect.stringContaining("https://as.lens-maker.example")]);
  });
});
