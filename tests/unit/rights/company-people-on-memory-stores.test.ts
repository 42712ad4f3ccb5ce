/**
 * A page's decisions on the in-memory stores: who may see and change a company's people, checked where they are read,
 * as the company page and its form run them, with no database behind.
 */
import { describe, expect, it } from "vitest";
import { actorOfSessionCookie, AccessDenied } from "@/lib/rights/actor";
import { actOnCompanyPeople, companyPeopleView } from "@/lib/rights/company-people";
import { signInUser } from "@/lib/session/login-session";
import { memoryService } from "../../helpers/memory-service";

async function setUp() {
  const service = memoryService();
  const stores = service.context.stores;
  await stores.companies.insert("company-2", { name: "Optik Anders", kind: "eye_care_professional", webServices: [] });
  const adminId = await service.addUser("chef@optik.example");
  await stores.people.changeRole("chef@optik.example", "admin");
  await service.addUser("kollege@optik.example");
  const person = { givenName: "Eva", familyName: "Fremd", role: "user", emailVerified: true, passwordHash: "x" };
  await stores.users.save({ ...person, email: "fremd@anders.example", companyId: "company-2" });
  const actorOf = async (userId: string) =>
    actorOfSessionCookie(service.context, (await signInUser(stores, { id: userId }, {})).cookieValue);
  return { ...service, stores, admin: await actorOf(adminId), actorOf };
}

describe("a company's people on the memory stores", () => {
  it("shows an administrator their own company's people only", async () => {
    const { admin } = await setUp();
    const view = await companyPeopleView(admin);
    expect(view.company).toMatchObject({ id: "company-1", name: "Optik Muster" });
    expect(view.people.map((person) => person.email).sort()).toEqual(["chef@optik.example", "kollege@optik.example"]);
    await expect(companyPeopleView(admin, "company-2")).rejects.toBeInstanceOf(AccessDenied);
  });

  it("refuses a colleague without the administrator's role", async () => {
    const { stores, actorOf } = await setUp();
    const colleague = await actorOf((await stores.users.findIdByEmail("kollege@optik.example"))!);
    await expect(companyPeopleView(colleague)).rejects.toBeInstanceOf(AccessDenied);
  });

  it("lets an administrator deactivate a colleague, signed out at once, but not someone of another company", async () => {
    const { stores, admin, actorOf } = await setUp();
    const colleagueId = (await stores.users.findIdByEmail("kollege@optik.example"))!;
    await actorOf(colleagueId);
    const action = { action: "deactivate" as const, email: "kollege@optik.example" };
    expect(await actOnCompanyPeople(admin, undefined, action)).toBe("deactivate");
    expect(await stores.users.findActivity(colleagueId)).toEqual({ id: colleagueId, active: false });
    expect(await stores.loginSessions.listCurrent(colleagueId, new Date())).toEqual([]);
    await expect(
      actOnCompanyPeople(admin, undefined, { action: "deactivate", email: "fremd@anders.example" }),
    ).rejects.toThrow("is not in this company");
  });
});
