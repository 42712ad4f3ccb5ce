/**
 * GET /manage/v1/users?q= takes `%`, `_` and `\` literally: they find the people whose email or names hold them, not
 * everyone (they once reached LIKE as wildcards); a pattern of many `%` costs no more than any other word.
 */
import { describe, expect, it } from "vitest";
import { prismaStores } from "@/lib/store/stores";
import { manage, managementToken } from "../../helpers/manage-api";
import { useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;

describe(`user search wildcards on ${testProvider()}`, () => {
  it("finds only the people whose email or names hold the %, _ or \\ searched for", async () => {
    const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const person = { companyId: "demo-company-optician", passwordHash, familyName: "Muster" };
    await db().user.createMany({
      data: [
        { ...person, email: "percent@shop.example", givenName: "Hundert%" },
        { ...person, email: "under_score@shop.example", givenName: "Uwe" },
        { ...person, email: "slash@shop.example", givenName: "Back\\slash" },
      ],
    });
    const { token } = await managementToken(prismaStores(db()), ["manage.users.read"]);
    const found = async (q: string) => {
      const answer = await manage("GET", `/users?q=${encodeURIComponent(q)}&limit=200`, { token });
      expect(answer.response.status).toBe(200);
      return answer.body.items.map((user: { email: string }) => user.email);
    };
    expect((await found("muster")).length).toBe(3);
    expect(await found("%")).toEqual(["percent@shop.example"]);
    expect(await found("_")).toEqual(["under_score@shop.example"]);
    expect(await found("\\")).toEqual(["slash@shop.example"]);
    expect(await found("%demo")).toEqual([]);
    expect(await found("o_t")).toEqual([]);
    expect(await found("%a".repeat(50) + "%b")).toEqual([]);
  });
});
