/** The forms of /portal/suppliers (POST /interaction/suppliers): the API's rules, CSRF, 303 answers, stale versions. */
import { describe, expect, it } from "vitest";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { REGISTRATION_FORM_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { RefusedRegistrationForm } from "@/lib/forms/refused-registration-form";
import { call, formRequest, SECRET_KEY, signedInAgent, useOAuthService } from "../helpers/oauth-service";
import { testProvider } from "../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const refusal = (agent: Awaited<ReturnType<typeof signedInAgent>>) =>
  unsealedCookieValue<RefusedRegistrationForm>(
    REGISTRATION_FORM_COOKIE,
    agent.cookies.get(REGISTRATION_FORM_COOKIE),
    SECRET_KEY,
  );
const post = (agent: Awaited<ReturnType<typeof signedInAgent>>, form: Record<string, string | string[]>) =>
  agent.post("suppliers", "/interaction/suppliers", form);

describe(`supplier registration forms on ${testProvider()}`, () => {
  it("lets an optician request and the supplier approve with customer groups, answering 303 to the page", async () => {
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const requested = await post(optician, {
      action: "request",
      supplier_id: "FWG",
      client_id: " K-9 ",
      catalog: ["catalog.xml"],
    });
    expect(requested.status).toBe(303);
    expect(requested.headers.get("location")).toBe("/portal/suppliers?done=request");
    const row = await db().supplierRegistration.findFirstOrThrow({
      where: { supplierCompanyId: "demo-company-frames", open: true },
      include: { subscriptions: true },
    });
    expect(row).toMatchObject({ clientId: "K-9", status: "requested" });
    expect(row.subscriptions).toHaveLength(1);
    expect(
      (await post(optician, { action: "request", supplier_id: "FWG", client_id: "K-9" })).headers.get("location"),
    ).toBe("/portal/suppliers?error=conflict");

    const frames = await signedInAgent("frames@demo.test", "Frames#2026");
    const change = { registration_id: row.id, version: String(row.version) };
    // Refused at the field: the approval opens again with what was typed, carried in a sealed one-time cookie.
    const badGroups = await post(frames, { action: "approve", ...change, customer_groups: "3,x" });
    expect(badGroups.headers.get("location")).toBe(`/portal/suppliers?confirm=approve%3A${row.id}#groups-${row.id}`);
    expect(refusal(frames)).toEqual({ error: "invalid_groups", registrationId: row.id, customerGroups: "3,x" });
    expect((await post(optician, { action: "approve", ...change, customer_groups: "3" })).headers.get("location")).toBe(
      "/portal/suppliers?error=forbidden",
    );
    expect(
      (await post(frames, { action: "approve", ...change, customer_groups: "3, 7" })).headers.get("location"),
    ).toBe("/portal/suppliers?done=approve");
    expect(
      JSON.parse((await db().supplierRegistration.findUniqueOrThrow({ where: { id: row.id } })).customerGroups),
    ).toEqual([3, 7]);
    // The form's version is the one the page showed: a second submission of it is stale.
    expect((await post(frames, { action: "end", ...change })).headers.get("location")).toBe(
      "/portal/suppliers?error=stale",
    );
    expect(
      (
        await post(optician, {
          action: "subscriptions",
          registration_id: row.id,
          version: String(row.version + 1),
          catalog: ["catalog.xml"],
        })
      ).headers.get("location"),
    ).toBe("/portal/suppliers?done=subscriptions");
    const unsubscribed = await db().catalogSubscription.findFirstOrThrow({ where: { registrationId: row.id } });
    expect(unsubscribed.status).toBe("Unsubscribed");
    expect(
      (
        await post(optician, { action: "withdraw", registration_id: row.id, version: String(row.version + 2) })
      ).headers.get("location"),
    ).toBe("/portal/suppliers?done=withdraw");
  });

  it("gives Demo Lens' user the demo's pending request to decide on", async () => {
    const request = await db().supplierRegistration.findFirstOrThrow({
      where: { supplierCompanyId: "demo-company-lens", status: "requested" },
    });
    const lens = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const change = { registration_id: request.id, version: String(request.version) };
    expect((await post(lens, { action: "approve", ...change, customer_groups: "2" })).headers.get("location")).toBe(
      "/portal/suppliers?done=approve",
    );
    expect(await db().supplierRegistration.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: "active",
      customerGroups: "[2]",
    });
  });

  it("refuses forms without a valid CSRF token, bad customer numbers and unknown actions, writing nothing", async () => {
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const before = await db().supplierRegistration.count();
    const forged = await call(
      "suppliers",
      formRequest(
        "/interaction/suppliers",
        { [CSRF_FIELD]: "forged", action: "request", supplier_id: "FWG", client_id: "1" },
        { cookie: [...optician.cookies].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ") },
      ),
    );
    expect(forged.headers.get("location")).toBe("/portal/suppliers?error=form_expired");
    const badNumber = await post(optician, {
      action: "request",
      supplier_id: "FWG",
      client_id: " ",
      catalog: ["catalog.xml"],
      q: "frame",
    });
    expect(badNumber.headers.get("location")).toBe("/portal/suppliers?q=frame#client-id-FWG");
    expect(refusal(optician)).toEqual({
      error: "invalid_client_id",
      supplierId: "FWG",
      clientId: " ",
      catalogs: ["catalog.xml"],
    });
    // What cannot name a form on the page goes back as a plain error; what does not fit a cookie is not carried.
    const halfEmoji = await post(optician, {
      action: "request",
      supplier_id: `${"a".repeat(63)}\u{1F600}`,
      client_id: "x".repeat(41),
    });
    expect(halfEmoji.headers.get("location")).toBe("/portal/suppliers?error=invalid_client_id");
    const tooMuch = await post(optician, {
      action: "request",
      supplier_id: "FWG",
      client_id: "\u0001".repeat(41),
      catalog: Array.from({ length: 60 }, (_, index) => `catalog-${index}-${"c".repeat(50)}`),
    });
    expect(tooMuch.headers.get("location")).toBe("/portal/suppliers?q=FWG#client-id-FWG");
    expect(refusal(optician)).toEqual({ error: "invalid_client_id", supplierId: "FWG" });
    expect(tooMuch.headers.get("set-cookie")!.length).toBeLessThan(4000);
    expect(
      (await post(optician, { action: "explode", registration_id: "x", version: "1" })).headers.get("location"),
    ).toBe("/portal/suppliers?error=unknown_action");
    expect(
      (await post(optician, { action: "withdraw", registration_id: "x", version: "1" })).headers.get("location"),
    ).toBe("/portal/suppliers?error=not_found");
    expect(await db().supplierRegistration.count()).toBe(before);
    const anonymous = await call("suppliers", formRequest("/interaction/suppliers", { action: "request" }));
    expect(anonymous.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fsuppliers");
  });
});
