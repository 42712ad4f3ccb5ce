/** `npm run admin -- federation …` and private_key_jwt clients from the CLI: each change audited, each refusal writes nothing. */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
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

const admin = (...args: string[]) => runAdmin(service().database.db, args);
const FEDERATION_CLIENT = {
  grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
  scope: "platform.catalogs.read",
};

const counts = async () => {
  const db = service().database.db;
  return Promise.all([
    db.trustedIssuer.count(),
    db.trustedIssuerClient.count(),
    db.federatedSubject.count(),
    db.auditEvent.count(),
    db.client.count(),
  ]);
};
const lastEvent = async () =>
  service().database.db.auditEvent.findFirstOrThrow({
    where: { type: { startsWith: "federation." } },
    orderBy: { occurredAt: "desc" },
  });

beforeAll(async () => {
  publicKeys = keySet(await partnerKey("ES256", "lens-1"));
  for (const clientId of ["fed-a", "fed-b"])
    expect(
      (await admin("clients", "add", file(`${clientId}.json`, { client_id: clientId, ...FEDERATION_CLIENT }))).code,
    ).toBe(0);
});

describe(`federation commands on ${testProvider()}`, () => {
  it("adds, updates, lists, links and removes trusted issuers, each change an audit event", async () => {
    const lens = {
      issuer: "https://as.lens-maker.example",
      jwks_uri: "https://as.lens-maker.example/jwks",
      clients: ["fed-a"],
      subject: "email",
      email_domains: ["lens-maker.example", "demo.test"],
    };
    expect(await admin("federation", "add", file("lens.json", lens))).toMatchObject({
      code: 0,
      stdout:
        "Trusted issuer https://as.lens-maker.example for fed-a (subjects by email; speaks for email domains lens-maker.example,demo.test).",
    });
    expect((await lastEvent()).type).toBe("federation.issuer_added");
    expect(
      (await admin("federation", "add", file("lens2.json", { ...lens, clients: ["fed-a", "fed-b"] }))).stdout,
    ).toMatch(/^Updated issuer/);
    expect(JSON.parse((await lastEvent()).details)).toMatchObject({ issuer: lens.issuer, clients: ["fed-a", "fed-b"] });

    const vendor = {
      issuer: "https://id.vendor.example",
      jwks: publicKeys,
      clients: ["fed-b"],
      subject: "link",
      companies: ["demo-company-optician"],
    };
    expect((await admin("federation", "add", file("vendor.json", vendor))).code).toBe(0);
    expect(await admin("federation", "link", vendor.issuer, "user-9", "Optician@Demo.test")).toMatchObject({
      code: 0,
      stdout: "Linked user-9 at https://id.vendor.example to Optician@Demo.test.",
    });
    expect((await lastEvent()).type).toBe("federation.subject_linked");
    const listed = (await admin("federation", "list")).stdout.split("\n");
    expect(listed).toEqual([
      "ISSUER                         SUBJECT          CLIENTS      KEYS                                SPEAKS_FOR",
      "https://as.lens-maker.example  email            fed-a,fed-b  https://as.lens-maker.example/jwks  email domains lens-maker.example,demo.test",
      "https://id.vendor.example      link (1 linked)  fed-b        inline (1)                          companies demo-company-optician",
    ]);
    const json = JSON.parse((await admin("federation", "list", "--json")).stdout) as Record<string, unknown>[];
    expect(json).toEqual([
      expect.objectContaining({ issuer: lens.issuer, subject: "email", linked_subjects: 0 }),
      expect.objectContaining({ issuer: vendor.issuer, subject: "link", linked_subjects: 1, jwks: publicKeys }),
    ]);

    const before = await counts();
    const refusals: [string[], RegExp][] = [
      [["federation", "link", lens.issuer, "s", "optician@demo.test"], /maps its subjects by verified email/],
      [["federation", "link", vendor.issuer, "s", "nobody@demo.test"], /there is no user "nobody@demo.test"/],
      [["federation", "link", "https://unknown.example", "s", "optician@demo.test"], /is not a trusted issuer/],
      [["federation", "remove", "https://unknown.example"], /is not a trusted issuer/],
      [["federation", "add", file("nobody.json", { ...lens, clients: ["nobody"] })], /there is no client "nobody"/],
      [["federation", "add", file("public.json", { ...lens, clients: ["demo-spa"] })], /is public/],
      [
        ["federation", "add", file("no-grant.json", { ...lens, clients: ["demo-backend"] })],
        /"demo-backend" has neither federation grant/,
      ],
      [
        ["federation", "add", file("space.json", { ...lens, issuer: " https://as.lens-maker.example" })],
        /printable ASCII without spaces/,
      ],
      [
        ["federation", "add", file("nul.json", { ...lens, issuer: "https://x.example/\u0000" })],
        /printable ASCII without spaces/,
      ],
      [
        [
          "federation",
          "add",
          file("rsa1024.json", {
            ...vendor,
            jwks: {
              keys: [
                {
                  ...generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" }),
                  kid: "short",
                },
              ],
            },
          }),
        ],
        /RSA key of fewer than 2048 bits/,
      ],
      [
        [
          "federation",
          "add",
          file("p384.json", { ...vendor, jwks: { keys: [{ kty: "EC", crv: "P-384", x: "a", y: "b" }] } }),
        ],
        /curve "P-384"/,
      ],
      [
        [
          "federation",
          "add",
          file("bad-point.json", { ...vendor, jwks: { keys: [{ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA" }] } }),
        ],
        /not a valid public key/,
      ],
      [["federation", "link", vendor.issuer, "user\u0000", "optician@demo.test"], /without control characters/],
      [["federation", "add", file("both.json", { ...lens, jwks: publicKeys })], /either jwks_uri or jwks/],
      [["federation", "add", file("http.json", { ...lens, issuer: "http://as.lens-maker.example" })], /must use https/],
      [
        [
          "federation",
          "add",
          file("private.json", { ...vendor, jwks: { keys: [{ ...(publicKeys.keys[0] as object), d: "x" }] } }),
        ],
        /private member "d"/,
      ],
      [["federation", "add", file("typo.json", { ...lens, client: ["demo-backend"] })], /unknown field "client"/],
      [["federation", "add", file("subject.json", { ...lens, subject: "name" })], /subject must be "email" or "link"/],
      [["federation", "add", file("broken.json", "{")], /not valid JSON/],
      [
        ["federation", "add", file("no-reach.json", { ...lens, email_domains: undefined })],
        /name whom the issuer speaks for: companies \(company ids\) and\/or email_domains/,
      ],
      [
        ["federation", "add", file("empty-reach.json", { ...lens, email_domains: [], companies: [] })],
        /name whom the issuer speaks for/,
      ],
      [
        ["federation", "add", file("operator.json", { ...lens, companies: ["demo-company-operator"] })],
        /"demo-company-operator" is the operator: operator accounts are never reached by email mapping/,
      ],
      [
        ["federation", "add", file("no-company.json", { ...lens, companies: ["nobody-company"] })],
        /there is no company "nobody-company"/,
      ],
      [
        ["federation", "add", file("wildcard.json", { ...lens, email_domains: ["*.demo.test"] })],
        /email_domains must be a list of lower-case domain names/,
      ],
      [
        ["federation", "add", file("upper.json", { ...lens, email_domains: ["Demo.test"] })],
        /email_domains must be a list of lower-case domain names/,
      ],
      [
        ["federation", "add", file("twice.json", { ...lens, companies: ["demo-company-lens", "demo-company-lens"] })],
        /companies lists "demo-company-lens" twice/,
      ],
      [
        ["federation", "link", vendor.issuer, "s", "supplier@demo.test"],
        /user "supplier@demo.test" is neither in a company nor in an email domain that "https:\/\/id.vendor.example" speaks for/,
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await admin(...args);
      expect([result.code, result.stderr], args.join(" ")).toEqual([1, expect.stringMatching(message)]);
    }
    // In production only https is trusted, for issuers and key sets alike.
    const production = await runAdmin(
      service().database.db,
      [
        "federation",
        "add",
        file("dev.json", { ...lens, issuer: "http://localhost:9998", jwks_uri: "http://localhost:9998/jwks" }),
      ],
      { production: true },
    );
    expect([production.code, production.stderr]).toEqual([
      1,
      expect.stringMatching(/"http:\/\/localhost:9998" must use https$/),
    ]);
    const keysClient = await runAdmin(
      service().database.db,
      [
        "clients",
        "add",
        file("dev-client.json", {
          client_id: "dev-keys",
          ...FEDERATION_CLIENT,
          token_endpoint_auth_method: "private_key_jwt",
          jwks_uri: "http://127.0.0.1:3911/jwks",
        }),
      ],
      { production: true },
    );
    expect([keysClient.code, keysClient.stderr]).toEqual([1, expect.stringMatching(/must use https$/)]);
    expect(await counts()).toEqual(before);
    expect((await admin("federation", "frobnicate")).code).toBe(2);

    expect(await admin("federation", "remove", vendor.issuer)).toMatchObject({
      code: 0,
      stdout: "Removed trusted issuer https://id.vendor.example.",
    });
    expect((await lastEvent()).type).toBe("federation.issuer_removed");
    expect(await service().database.db.federatedSubject.count()).toBe(0);
  });

  it("registers a private_key_jwt client without a secret, and runs as `npm run admin` does", async () => {
    const metadata = {
      client_id: "partner-keys",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "private_key_jwt",
      scope: "platform.catalogs.read",
      jwks: publicKeys,
    };
    const added = await admin("clients", "add", file("client.json", metadata));
    expect(added.code).toBe(0);
    const printed = JSON.parse(added.stdout);
    expect(printed).toMatchObject({
      client_id: "partner-keys",
      token_endpoint_auth_method: "private_key_jwt",
      jwks: publicKeys,
    });
    expect(printed.client_secret).toBeUndefined();
    expect((await admin("clients", "secret", "add", "partner-keys")).stderr).toMatch(/authenticates with its keys/);
    const result = await runScript("scripts/admin.ts", ["federation", "list"], {
      DATABASE_URL: service().database.target.url,
      SECRET_KEY: process.env.SECRET_KEY,
    });
    expect([result.code, result.stdout.trim()]).toEqual([0, expect.stringContaining("https://as.lens-maker.example")]);
  });
});
