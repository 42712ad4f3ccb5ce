/**
 * `npm run admin -- users list|deactivate|activate|unlock`: JSON on success (the list as a table unless --json), each
 * change audited.
 */
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const admin = (...args: string[]) => runAdmin(service().database.db, args);
const status = async (email: string) =>
  (JSON.parse((await admin("users", "list", "--json")).stdout) as { email: string; status: string }[]).find(
    (user) => user.email === email,
  )?.status;

describe(`users CLI on ${testProvider()}`, () => {
  it("lists users with company, role and status, for one company on request", async () => {
    const table = (await admin("users", "list")).stdout.split("\n");
    expect(table[0]).toMatch(/^EMAIL +COMPANY +ROLE +STATUS +LAST_SIGN_IN +NAME$/);
    expect(table).toContainEqual(
      expect.stringMatching(
        /^optician@demo\.test +demo-company-optician +admin +active +(?:-|\d{4}-\d\d-\d\d \d\d:\d\d) +Olivia Optik$/,
      ),
    );
    const all = JSON.parse((await admin("users", "list", "--json")).stdout);
    expect(all).toContainEqual({
      email: "optician@demo.test",
      company: "demo-company-optician",
      role: expect.any(String),
      status: "active",
      given_name: "Olivia",
      family_name: "Optik",
      created_at: expect.any(String),
    });
    const lens = JSON.parse((await admin("users", "list", "--json", "--company", "demo-company-lens")).stdout);
    expect(lens.map((user: { email: string }) => user.email)).toEqual(["supplier@demo.test"]);
    expect(await admin("users", "list", "--firma", "x")).toMatchObject({ code: 2, stdout: "" });
    expect((await admin("users", "list", "--company")).stderr).toMatch(/--company needs a value/);
  });

  it("deactivates a user: signed out, announced, refused; activates them again", async () => {
    const db = service().database.db;
    await signedInAgent("supplier@demo.test", "Supplier#2026");
    const user = await db.user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
    const sessions = await db.loginSession.findMany({ where: { userId: user.id, endedAt: null } });
    expect(sessions.length).toBeGreaterThan(0);

    // User names are compared in lower case, as sign-in does.
    const deactivated = await admin("users", "deactivate", "Supplier@Demo.test");
    expect(deactivated.code).toBe(0);
    expect(JSON.parse(deactivated.stdout)).toMatchObject({ email: "supplier@demo.test", status: "deactivated" });
    expect(deactivated.announced.sort()).toEqual(sessions.map((session) => session.id).sort());
    expect(await db.loginSession.count({ where: { userId: user.id, endedAt: null } })).toBe(0);
    await expect(signedInAgent("supplier@demo.test", "Supplier#2026")).rejects.toThrow(/could not sign in/);
    expect((await admin("users", "deactivate", "supplier@demo.test")).stderr).toMatch(/deactivated already/);
    expect(await db.auditEvent.count({ where: { type: "user.deactivated" } })).toBe(1);

    // While the company is deactivated, the user cannot be activated alone.
    await admin("companies", "deactivate", "demo-company-lens");
    expect((await admin("users", "activate", "supplier@demo.test")).stderr).toMatch(/company .* is deactivated/);
    await admin("companies", "activate", "demo-company-lens");
    expect(await status("supplier@demo.test")).toBe("deactivated");

    const activated = await admin("users", "activate", "supplier@demo.test");
    expect(JSON.parse(activated.stdout)).toMatchObject({ status: "active" });
    await signedInAgent("supplier@demo.test", "Supplier#2026");
    expect((await admin("users", "activate", "supplier@demo.test")).stderr).toMatch(/active already/);
  });

  it("shows a lock-out after failed sign-ins and lifts it", async () => {
    const agent = new UserAgent();
    for (let attempt = 0; attempt < 6; attempt++) await agent.login("/", "frames@demo.test", "wrong password");
    expect(await status("frames@demo.test")).toBe("locked");
    await expect(signedInAgent("frames@demo.test", "Frames#2026")).rejects.toThrow(/could not sign in/);
    const unlocked = await admin("users", "unlock", "frames@demo.test");
    expect(JSON.parse(unlocked.stdout)).toMatchObject({ email: "frames@demo.test", status: "active" });
    await signedInAgent("frames@demo.test", "Frames#2026");
    expect(await service().database.db.auditEvent.count({ where: { type: "user.unlocked" } })).toBe(1);
  });

  it("refuses an unknown user and a missing argument", async () => {
    for (const command of ["deactivate", "activate", "unlock"]) {
      const result = await admin("users", command, "nobody@demo.test");
      expect(result).toMatchObject({ code: 1, stdout: "", stderr: 'error: there is no user "nobody@demo.test"' });
    }
    expect((await admin("users", "unlock")).stderr).toMatch(/users unlock needs <email>/);
    expect((await admin("user", "list")).stderr).toMatch(/did you mean "users list"/);
  });
});
