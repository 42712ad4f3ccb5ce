/**
 * The operator's decision sent from the client list (/admin/clients): the same form route and rights checks as on a
 * client's page, and back to the list with the client named; a refusal still goes to the client's page, which says why.
 */
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { call, ISSUER, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;

/** An application of the demo vendor, registered by API and waiting for the operator. */
async function pendingApplication(clientId: string): Promise<void> {
  const issued = await runAdmin(db(), ["partners", "token", "demo-company-vendor"]);
  const headers = {
    authorization: `Bearer ${JSON.parse(issued.stdout).initial_access_token}`,
    "content-type": "application/json",
  };
  const body = JSON.stringify({
    client_id: clientId,
    client_name: "Praxissoft Kalender",
    redirect_uris: ["https://kalender.praxissoft.example/callback"],
  });
  const registered = await call(
    "register",
    new Request(`${ISSUER}/connect/register`, { method: "POST", headers, body }),
  );
  expect(registered.status).toBe(201);
}

const statusOf = async (clientId: string) => (await db().client.findUniqueOrThrow({ where: { id: clientId } })).status;

describe(`a decision from the operator's client list on ${testProvider()}`, () => {
  const fromList = (agent: UserAgent, form: Record<string, string>) =>
    agent.post("admin", "/interaction/admin", { ...form, return_to: "list" });

  it("comes back to the list naming the client, for operators only", async () => {
    await pendingApplication("kalender-approve");
    await pendingApplication("kalender-reject");
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    for (const agent of [developer, new UserAgent()])
      expect((await fromList(agent, { action: "approve", client_id: "kalender-approve" })).status).toBe(403);
    expect(await statusOf("kalender-approve")).toBe("pending");

    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const approved = await fromList(operator, { action: "approve", client_id: "kalender-approve" });
    expect(approved.headers.get("location")).toBe("/admin/clients?reviewed=approve&client=kalender-approve");
    expect(await statusOf("kalender-approve")).toBe("approved");

    const noReason = await fromList(operator, { action: "reject", client_id: "kalender-reject", reason: " " });
    expect(noReason.headers.get("location")).toBe("/admin/clients/kalender-reject");
    expect(await statusOf("kalender-reject")).toBe("pending");
    const rejected = await fromList(operator, { action: "reject", client_id: "kalender-reject", reason: "Unknown" });
    expect(rejected.headers.get("location")).toBe("/admin/clients?reviewed=reject&client=kalender-reject");
    expect(await statusOf("kalender-reject")).toBe("rejected");
    const again = await fromList(operator, { action: "approve", client_id: "kalender-approve" });
    expect(again.headers.get("location")).toBe("/admin/clients/kalender-approve");
  });
});
