/**
 * The client secret of a company's provider goes only to the server it was given for (issue 46, security review), on
 * a real database, through the company page's form and setCompanySso: a stored secret is kept only while the issuer,
 * the client id and the authentication method stay, and a company administrator rewriting the operator's registration
 * gives one of their own; otherwise a new secret is asked for at the field, nothing written. private_key_jwt keeps none.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CompanySsoError, setCompanySso } from "@/lib/admin/company-sso-registry";
import { getServiceContext } from "@/lib/service-context";
import { openClientSecret } from "@/lib/store/company-sso-store";
import { STANDARD_CLAIMS, type CompanySsoWrite } from "@/lib/store/models/company-sso";
import messages from "@/messages/en.json";
import german from "@/messages/de.json";
import { postCompanySso } from "../../helpers/company-sso-forms";
import { SECRET_KEY, signedInAgent, type UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const COMPANY = "demo-company-optician";
const FIRST = "first-secret-0123456789";

const service = useOAuthService();
const db = () => service().database.db;
let admin: UserAgent;

/** The settings form as the page posts it. */
const settings = (changes: Record<string, string> = {}) => ({
  action: "settings",
  issuer: "https://idp-one.example",
  client_id: "optigate",
  client_secret: "",
  token_endpoint_auth_method: "client_secret_basic",
  scope: "openid email profile",
  ...changes,
});
const save = (changes: Record<string, string>) => postCompanySso(admin, settings(changes));

const stored = (companyId = COMPANY) => db().companySso.findUniqueOrThrow({ where: { companyId } });
const secretOf = async (companyId = COMPANY) =>
  openClientSecret({ sealedClientSecret: (await stored(companyId)).clientSecretSealed }, SECRET_KEY);

/** The page's answer to a secret it will not keep: at the field, in every language, nothing written. */
async function expectSecretAskedFor(changes: Record<string, string>) {
  const before = await stored();
  const { outcome } = await save(changes);
  const where = JSON.stringify(changes);
  expect(outcome, where).toMatchObject({ action: "settings", problem: "secret_not_kept", field: "client_secret" });
  expect(await stored(), where).toEqual(before);
}

beforeAll(async () => {
  admin = await signedInAgent("optician@demo.test", "Optician#2026");
});

describe(`the client secret of a company's provider on ${testProvider()}`, () => {
  it("asks the page for a new secret when the issuer, client id or method changes; private_key_jwt keeps none", async () => {
    expect((await save({ client_secret: FIRST })).outcome).toEqual({ action: "settings" });
    await expectSecretAskedFor({ issuer: "https://idp-chosen.example" });
    await expectSecretAskedFor({ client_id: "another-client" });
    await expectSecretAskedFor({ token_endpoint_auth_method: "client_secret_post" });
    const problems = [messages, german].map(
      (each) => (each.CompanySso.problems as Record<string, string>).secret_not_kept,
    );
    expect(problems[0]).toEqual(expect.any(String));
    expect(problems[1]).not.toBe(problems[0]);

    // The same provider and client: the secret stays.
    expect((await save({ scope: "openid email" })).outcome).toEqual({ action: "settings" });
    expect(await secretOf()).toBe(FIRST);
    expect((await save({ issuer: "https://idp-two.example", client_secret: "second-secret" })).outcome).toEqual({
      action: "settings",
    });
    expect(await secretOf()).toBe("second-secret");

    expect(
      (await save({ issuer: "https://idp-two.example", token_endpoint_auth_method: "private_key_jwt" })).outcome,
    ).toEqual({
      action: "settings",
    });
    expect((await stored()).clientSecretSealed).toBeNull();
    expect((await save({ issuer: "https://idp-two.example" })).outcome).toMatchObject({
      problem: "secret_needed",
      field: "client_secret",
    });
  });

  it("asks a company's administrator for a secret of their own to rewrite the operator's registration", async () => {
    const { stores } = getServiceContext();
    const operator = { secretKey: SECRET_KEY, byOperator: true };
    const registration: CompanySsoWrite = {
      issuer: "https://idp-one.example",
      clientId: "optigate",
      clientSecret: "operator-secret",
      authMethod: "client_secret_basic",
      scope: "openid email profile",
      claims: STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
    };
    await setCompanySso(stores, COMPANY, registration, operator);
    await expectSecretAskedFor({});
    expect((await save({ client_secret: "admin-secret" })).outcome).toEqual({ action: "settings" });
    expect(await stored()).toMatchObject({ registeredByOperator: false });
    expect(await secretOf()).toBe("admin-secret");
  });

  it("refuses setCompanySso a stored secret for other settings, operators included, with a clear message", async () => {
    const { stores } = getServiceContext();
    const company = "demo-company-frames";
    const operator = { secretKey: SECRET_KEY, byOperator: true };
    const { clientSecret: _given, ...kept }: CompanySsoWrite = {
      issuer: "https://idp-one.example",
      clientId: "optigate",
      clientSecret: "frames-secret",
      authMethod: "client_secret_post",
      scope: "openid email profile",
      claims: STANDARD_CLAIMS,
      hostedDomain: null,
      tenantId: null,
    };
    await setCompanySso(stores, company, { ...kept, clientSecret: "frames-secret" }, operator);
    const before = await stored(company);
    const refusal = await setCompanySso(
      stores,
      company,
      { ...kept, issuer: "https://idp-chosen.example" },
      operator,
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(CompanySsoError);
    expect(refusal).toMatchObject({
      code: "secret_not_kept",
      field: "client_secret",
      message: expect.stringMatching(/^client_secret is needed: .*issuer, client_id and token_endpoint_auth_method/),
    });
    expect(await stored(company)).toEqual(before);

    expect(await setCompanySso(stores, company, { ...kept, scope: "openid email" }, operator)).toMatchObject({
      client_secret_set: true,
    });
    expect(await secretOf(company)).toBe("frames-secret");
    const keyed = await setCompanySso(stores, company, { ...kept, authMethod: "private_key_jwt" }, operator);
    expect(keyed).toMatchObject({ client_secret_set: false });
    expect((await stored(company)).clientSecretSealed).toBeNull();
  });
});
