/**
 * The quick start's data (lib/rights/partner-quick-start.ts) for each kind of visitor, on a real database: the demo
 * vendor's developer gets its application's facts and snippets, with no secret in them; another vendor's developer
 * finds the application not found, as any id that is not the company's own; an optician's administrator, the
 * operator and a vendor's user who is no developer are refused; a visitor is sent to sign in.
 * (tests/e2e/quick-start-access.spec.ts reads the rendered page's raw HTML per role.)
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/crypto/password";
import { AccessDenied, actorOfSessionCookie, type Actor } from "@/lib/rights/actor";
import { partnerQuickStart } from "@/lib/rights/partner-quick-start";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { runAdmin } from "../../helpers/admin-cli";
import { ISSUER, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const APPLICATION = "praxissoft-termine";
const PASSWORD = "werkbank quelltext leuchtturm";

async function actorOf(email?: string, password?: string): Promise<Actor> {
  const agent = email ? await signedInAgent(email, password!) : undefined;
  return actorOfSessionCookie(getServiceContext(), agent?.cookies.get(SESSION_COOKIE));
}

const refusal = (read: Promise<unknown>) =>
  read.then(
    (view) => (view === undefined ? "not found" : "allowed"),
    (error: unknown) => (error instanceof AccessDenied ? error.code : `failed: ${String(error)}`),
  );

/** A person of a company with a role, who can sign in with PASSWORD. */
async function person(email: string, companyId: string, role: "user" | "developer") {
  await db().user.create({
    data: { email, givenName: "T", familyName: "P", companyId, role, passwordHash: await hashPassword(PASSWORD) },
  });
  return actorOf(email, PASSWORD);
}

let secret: string;
beforeAll(async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "optigate-vendor-")), "vendor.json");
  writeFileSync(
    file,
    JSON.stringify({ id: "other-vendor", name: "Other Vendor", kind: "software_vendor", country: "DE" }),
  );
  expect((await runAdmin(db(), ["companies", "add", file])).code).toBe(0);
  secret = JSON.parse((await runAdmin(db(), ["clients", "secret", "add", APPLICATION])).stdout).client_secret;
});

describe(`the quick start's data on ${testProvider()}`, () => {
  it("gives the vendor's developer its application's facts and snippets, and no secret", async () => {
    const developer = await actorOf("developer@demo.test", "Developer#2026");
    const view = (await partnerQuickStart(developer, APPLICATION))!;
    expect(view).toMatchObject({
      client: { id: APPLICATION, redirectUris: ["https://termine.praxissoft.example/callback"] },
      status: "pending",
      issuer: ISSUER,
      discoveryUrl: `${ISSUER}/.well-known/openid-configuration`,
    });
    expect(view.guide.snippets.map(({ id }) => id)).toEqual(["authjs", "express", "aspnet", "spring"]);
    expect(view.guide.env.text).toContain(`OPTIGATE_CLIENT_ID=${APPLICATION}\n`);
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(await refusal(partnerQuickStart(developer, "demo-web"))).toBe("not found");
    expect(await refusal(partnerQuickStart(developer, "no-such-application"))).toBe("not found");
  });

  it("does not find the application for another vendor's developer, who sees its own", async () => {
    const other = await person("dev@other-vendor.test", "other-vendor", "developer");
    const agent = await signedInAgent("dev@other-vendor.test", PASSWORD);
    const registered = await agent.post("developer", "/interaction/developer", {
      action: "register",
      kind: "web",
      client_id: "other-vendor-web",
      client_name: "Other Web",
      redirect_uris: "https://web.other-vendor.example/callback",
      scope: ["openid"],
    });
    expect(registered.headers.get("location")).toBe("/portal/developer?registered=other-vendor-web");
    expect(await refusal(partnerQuickStart(other, APPLICATION))).toBe("not found");
    expect(await refusal(partnerQuickStart(other, "other-vendor-web"))).toBe("allowed");
    const developer = await actorOf("developer@demo.test", "Developer#2026");
    expect(await refusal(partnerQuickStart(developer, "other-vendor-web"))).toBe("not found");
  });

  it("refuses customers, the operator and a vendor's plain user, and sends visitors to sign in", async () => {
    expect(await refusal(partnerQuickStart(await actorOf("optician@demo.test", "Optician#2026"), APPLICATION))).toBe(
      "forbidden",
    );
    expect(await refusal(partnerQuickStart(await actorOf("admin@demo.test", "Admin#2026"), APPLICATION))).toBe(
      "forbidden",
    );
    const plain = await person("user@praxissoft-quick-start.test", "demo-company-vendor", "user");
    expect(await refusal(partnerQuickStart(plain, APPLICATION))).toBe("forbidden");
    expect(await refusal(partnerQuickStart(await actorOf(), APPLICATION))).toBe("sign_in_required");
  });
});
