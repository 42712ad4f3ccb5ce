/**
 * Sign-in notices through the real login form, the outbox worker and a real SMTP server: the first sign-in of an
 * account in a browser mails its owner (with when, the browser, the address and a one-time "not me" link of which only
 * the hash is stored), a browser that knows the account does not, for the operator by default and for another company
 * only once it switched notices on; the switch is its administrators' and the operator's, never a plain user's.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ISSUER, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { runAdmin } from "../../helpers/admin-cli";
import { freshBrowser, notMeLinkOf, signIn, useNoticeMail } from "../../helpers/sign-in-notices";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const mail = useNoticeMail(db);
const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");
const operatorCompany = async () => (await db().company.findFirstOrThrow({ where: { kind: "operator" } })).id;

let companies = 0;
/** A supplier of its own, its notices at the kind's default (off). */
async function newSupplier(): Promise<string> {
  const id = `notice-supplier-${++companies}`;
  await db().company.create({ data: { id, name: `Notice Lenses ${companies}`, kind: "supplier" } });
  return id;
}

const switchNotices = (agent: UserAgent, setting: "on" | "off", companyId?: string) =>
  agent.post("company", "/interaction/company", {
    action: "sign-in-notices",
    notices: setting,
    ...(companyId ? { company_id: companyId } : {}),
  });
const noticesSetting = async (companyId: string) =>
  (await db().company.findUniqueOrThrow({ where: { id: companyId } })).signInNotices;

describe(`sign-in notices on ${testProvider()}`, () => {
  it("mail an operator's first sign-in in a browser: when, which browser, from where, and a 'not me' link", async () => {
    const person = await mail.newPerson(await operatorCompany());
    const browser = freshBrowser();
    const response = await browser.login("/", person.email, "a long enough passphrase 7");
    expect(response.headers.get("location")).toBe("/");
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("optigate_browser="))!;
    expect(cookie).toMatch(/; Path=\/; SameSite=Lax; HttpOnly; Max-Age=31536000$/);

    const [notice, ...more] = await mail.delivered(person.email);
    expect(more).toEqual([]);
    expect(notice.subject).toBe("New sign-in to your OptiGate account");
    expect(notice.text).toContain(person.email);
    expect(notice.text).toContain("Browser: Firefox 131 · Linux");
    expect(notice.text).toContain("Network address: 198.51.100.7");
    expect(notice.text).toMatch(/When: .*\d{4}.* \(UTC\)/);
    expect(notice.text).toContain("for 7 days");
    const { url, token } = notMeLinkOf(notice);
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/login/not-me`);
    expect(url.searchParams.get("ui_locales")).toBe("en");
    expect(notice.html).toContain(url.href.replace(/&/g, "&amp;"));

    // Only the link's hash is kept; the mail waits sealed, as every mail does.
    const stored = await db().signInNotice.findFirstOrThrow({ where: { userId: person.id } });
    expect(stored).toMatchObject({ tokenHash: sha256(token), sentTo: person.email, usedAt: null });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(7 * 86_400_000);
    const row = await db().outboxMessage.findFirstOrThrow({ where: { kind: "new_sign_in", recipient: person.email } });
    expect(JSON.stringify([stored, row])).not.toContain(token);
  });

  it("do not mail a sign-in in a browser that knows the account, and a browser knows each account of its own", async () => {
    const operator = await operatorCompany();
    const [ada, bob] = [await mail.newPerson(operator), await mail.newPerson(operator)];
    const browser = await signIn(ada.email);
    await signIn(ada.email, browser);
    expect(await mail.noticesTo(ada.email)).toBe(1);
    await signIn(bob.email, browser);
    expect(await mail.noticesTo(bob.email)).toBe(1);
    await signIn(ada.email, browser);
    await signIn(bob.email, browser);
    expect([await mail.noticesTo(ada.email), await mail.noticesTo(bob.email)]).toEqual([1, 1]);
    // Another browser, or one whose cookie is gone, is new to the account.
    await signIn(ada.email);
    browser.cookies.delete("optigate_browser");
    await signIn(bob.email, browser);
    expect([await mail.noticesTo(ada.email), await mail.noticesTo(bob.email)]).toEqual([2, 2]);
  });

  it("mail a supplier's people only once their company switched notices on, in each person's language", async () => {
    const supplier = await newSupplier();
    const admin = await mail.newPerson(supplier, { role: "admin" });
    const person = await mail.newPerson(supplier, { preferredLanguage: "de" });
    await signIn(person.email);
    const administrator = await signIn(admin.email);
    expect([await mail.noticesTo(person.email), await mail.noticesTo(admin.email)]).toEqual([0, 0]);

    const switched = await switchNotices(administrator, "on");
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/portal/company?signInNotices=on#sign-in-notices");
    expect(await noticesSetting(supplier)).toBe(true);
    const event = await db().auditEvent.findFirstOrThrow({ where: { type: "company.updated", userId: admin.id } });
    expect(JSON.parse(event.details!)).toEqual({ companyId: supplier, signInNotices: true });

    await signIn(person.email, freshBrowser("en"));
    const [notice] = await mail.delivered(person.email);
    expect(notice.subject).toBe("Neue Anmeldung bei Ihrem OptiGate-Konto");
    expect(notMeLinkOf(notice).url.searchParams.get("ui_locales")).toBe("de");
  });

  it("let a company's administrators and the operator switch notices, and refuse a plain user and another company's administrator", async () => {
    const supplier = await newSupplier();
    const other = await newSupplier();
    const plain = await signIn((await mail.newPerson(supplier)).email);
    const otherAdmin = await signIn((await mail.newPerson(other, { role: "admin" })).email);
    expect((await switchNotices(plain, "on")).status).toBe(403);
    expect((await switchNotices(plain, "on", supplier)).status).toBe(403);
    expect((await switchNotices(otherAdmin, "on", supplier)).status).toBe(403);
    expect(await noticesSetting(supplier)).toBeNull();
    expect(await db().auditEvent.count({ where: { type: "company.updated", details: { contains: supplier } } })).toBe(
      0,
    );

    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const byOperator = await switchNotices(operator, "on", supplier);
    expect(byOperator.headers.get("location")).toBe(`/admin/companies/${supplier}?signInNotices=on#sign-in-notices`);
    expect(await noticesSetting(supplier)).toBe(true);
    expect((await switchNotices(operator, "off", supplier)).status).toBe(303);
    expect(await noticesSetting(supplier)).toBe(false);
  });

  it("are switched by the operator's CLI, which shows the setting in force with the company", async () => {
    const supplier = await newSupplier();
    const admin = (...args: string[]) => runAdmin(db(), args);
    expect(JSON.parse((await admin("companies", "show", supplier)).stdout).sign_in_notices).toBe(false);
    const on = await admin("companies", "sign-in-notices", supplier, "on");
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ id: supplier, sign_in_notices: true });
    expect(await noticesSetting(supplier)).toBe(true);
    const refused = await admin("companies", "sign-in-notices", supplier, "yes");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/say on or off/);
    expect((await admin("companies", "sign-in-notices", "no-such-company", "off")).stderr).toMatch(/no company/);
    expect(JSON.parse((await admin("companies", "show", await operatorCompany())).stdout).sign_in_notices).toBe(true);
  });
});
