/**
 * Whom a trusted issuer may speak for (the third security review's high finding): a jwt-bearer assertion reaches a
 * local user only when the user's company is among the issuer's `companies` or the user's email domain among its
 * `email_domains`; operator accounts are never reached by an email claim, only by an explicit link; an issuer
 * registered before the limit existed is refused until the operator names one. Every combination of limit and
 * target user is tried through the token endpoint.
 */
import { prismaStores } from "@/lib/store/stores";
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { addTrustedIssuer, linkSubject } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import { forgetTrustedIssuers } from "@/lib/store/trusted-issuer-store";
import { basic, call, formRequest, ISSUER, SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { keySet, nowSeconds, partnerKey, signed, type PartnerKey } from "../../helpers/partner-keys";
import { runScript } from "../../helpers/run-script";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const db = () => service().database.db;
let key: PartnerKey;
let secret: string;

const TARGETS = {
  optician: { email: "optician@demo.test", companyId: "demo-company-optician" },
  supplier: { email: "supplier@demo.test", companyId: "demo-company-lens" },
  frames: { email: "frames@demo.test", companyId: "demo-company-frames" },
  operator: { email: "admin@demo.test", companyId: "demo-company-operator" },
} as const;
type Target = keyof typeof TARGETS;

/** Issuers mapping subjects by email, each with another limit, and which targets each may reach. */
const EMAIL_ISSUERS: { name: string; limit: Record<string, string[]>; reaches: Target[] }[] = [
  { name: "companies: the optician's", limit: { companies: ["demo-company-optician"] }, reaches: ["optician"] },
  {
    name: "companies: both suppliers",
    limit: { companies: ["demo-company-lens", "demo-company-frames"] },
    reaches: ["supplier", "frames"],
  },
  {
    name: "email domain of every demo user",
    limit: { email_domains: ["demo.test"] },
    reaches: ["optician", "supplier", "frames"],
  },
  {
    name: "a company and a foreign domain",
    limit: { companies: ["demo-company-lens"], email_domains: ["lens-maker.example"] },
    reaches: ["supplier"],
  },
  { name: "a foreign domain only", limit: { email_domains: ["lens-maker.example"] }, reaches: [] },
];
const issuerUrl = (name: string) => `https://as-${name.replace(/[^a-z]+/g, "-")}.example`;

function assertion(iss: string, claims: Record<string, unknown>): Promise<string> {
  return signed(key, {
    iss,
    sub: randomUUID(),
    aud: ISSUER,
    iat: nowSeconds(),
    exp: nowSeconds() + 300,
    jti: randomUUID(),
    ...claims,
  });
}

const grant = async (jwt: string) => {
  const response = await call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: JWT_BEARER, assertion: jwt },
      { authorization: basic("reach-app", secret) },
    ),
  );
  return { status: response.status, body: await response.json() };
};

async function trust(issuer: string, subject: "email" | "link", limit: Record<string, string[]>): Promise<void> {
  await addTrustedIssuer(
    prismaStores(db()),
    parseTrustedIssuer({ issuer, jwks: keySet(key), clients: ["reach-app"], subject, ...limit }),
  );
}

beforeAll(async () => {
  key = await partnerKey("ES256");
  const client = await registerClient(
    prismaStores(db()),
    parseClientMetadata(
      { client_id: "reach-app", grant_types: [JWT_BEARER], scope: "platform.catalogs.read platform.supplierreg.read" },
      "platform",
    ),
  );
  secret = client.secret!.secret;
  for (const issuer of EMAIL_ISSUERS) await trust(issuerUrl(issuer.name), "email", issuer.limit);
});

describe(`a trusted issuer speaks only for the people it names, on ${testProvider()}`, () => {
  const cells = EMAIL_ISSUERS.flatMap((issuer) =>
    (Object.keys(TARGETS) as Target[]).map((target) => [issuer.name, target, issuer.reaches.includes(target)] as const),
  );

  it.each(cells)("email mapping, %s → %s: reached %s", async (name, target, reached) => {
    const answer = await grant(
      await assertion(issuerUrl(name), { email: TARGETS[target].email, email_verified: true }),
    );
    if (reached) {
      expect(answer.status).toBe(200);
      const user = await db().user.findUniqueOrThrow({ where: { email: TARGETS[target].email } });
      expect(decodeJwt(answer.body.access_token)).toMatchObject({
        sub: user.id,
        company_id: TARGETS[target].companyId,
      });
    } else {
      expect(answer).toEqual({
        status: 400,
        body: {
          error: "invalid_grant",
          error_description:
            "the assertion was refused: its verified email does not name an active local user this issuer speaks for",
        },
      });
    }
  });

  it("never reaches an operator account by email, even when the operator's domain is named", async () => {
    await trust("https://as.operator-domain.example", "email", { email_domains: ["demo.test"] });
    expect(
      (
        await grant(
          await assertion("https://as.operator-domain.example", { email: "admin@demo.test", email_verified: true }),
        )
      ).status,
    ).toBe(400);
    await expect(
      trust("https://as.operator-company.example", "email", { companies: ["demo-company-operator"] }),
    ).rejects.toThrow(/operator accounts are never reached by email mapping/);
  });

  it("reaches an operator account only through the operator's explicit link within the issuer's companies", async () => {
    const iss = "https://id.operator-partner.example";
    await trust(iss, "link", { companies: ["demo-company-operator", "demo-company-optician"] });
    await linkSubject(prismaStores(db()), iss, "ops-1", "admin@demo.test");
    await linkSubject(prismaStores(db()), iss, "opt-1", "optician@demo.test");
    await expect(linkSubject(prismaStores(db()), iss, "sup-1", "supplier@demo.test")).rejects.toThrow(
      /is neither in a company nor in an email domain/,
    );
    expect((await grant(await assertion(iss, { sub: "ops-1" }))).status).toBe(200);
    expect((await grant(await assertion(iss, { sub: "opt-1" }))).status).toBe(200);

    // The operator narrows the issuer: the link stays, but the user is out of reach from now on.
    await trust(iss, "link", { companies: ["demo-company-optician"] });
    expect(await grant(await assertion(iss, { sub: "ops-1" }))).toEqual({
      status: 400,
      body: {
        error: "invalid_grant",
        error_description:
          "the assertion was refused: its subject is not linked to an active local user this issuer speaks for",
      },
    });
    expect((await grant(await assertion(iss, { sub: "opt-1" }))).status).toBe(200);
  });

  it("refuses an issuer registered before it had to name whom it speaks for, and the start-up log says so", async () => {
    const iss = "https://as.legacy.example";
    await trust(iss, "email", { companies: ["demo-company-optician"] });
    await db().trustedIssuer.update({ where: { issuer: iss }, data: { companies: null, emailDomains: null } });
    forgetTrustedIssuers();
    expect(await grant(await assertion(iss, { email: "optician@demo.test", email_verified: true }))).toEqual({
      status: 400,
      body: {
        error: "invalid_grant",
        error_description: `the assertion was refused: its issuer "${iss}" does not name whom it speaks for yet: the operator must set its companies or email_domains`,
      },
    });
    const migrate = await runScript("scripts/migrate.ts", [], {
      DATABASE_URL: service().database.target.url,
      SECRET_KEY,
    });
    expect(migrate.code).toBe(0);
    expect(migrate.stderr).toContain(
      `Warning: trusted issuer ${iss} names neither companies nor email_domains: its tokens are refused`,
    );
    const listed = await runScript("scripts/admin.ts", ["federation", "list"], {
      DATABASE_URL: service().database.target.url,
      SECRET_KEY,
    });
    expect(listed.stdout).toMatch(
      /as\.legacy\.example .* nobody yet \(refused until companies or email_domains are set/,
    );
  });
});
