/**
 * The trusted-issuer store's contract: a registration is checked inside its write and found, listed, replaced,
 * linked and removed, each with its audit event; the lookups a check reads answer from the stored companies and clients.
 */
import { describe, expect, it } from "vitest";
import { forgetFederatedUsers, forgetTrustedIssuers, type LinkRules } from "@/lib/store/trusted-issuer-store";
import type { TrustedIssuerRegistration } from "@/lib/store/models/trusted-issuer";
import { registration as clientRegistration } from "./clients";
import { freshValue, newPerson, type StoreBackend } from "./store-backend";

const KEY = {
  kty: "EC",
  crv: "P-256",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
};

const issuerRegistration = (issuer: string, overrides: Partial<TrustedIssuerRegistration> = {}) => ({
  issuer,
  jwks: { keys: [KEY] },
  jwksUri: null,
  clientIds: [] as string[],
  subjectMapping: "link" as const,
  reach: { companies: [] as string[], emailDomains: ["contract.example"] },
  ...overrides,
});

const accepting: LinkRules = {
  issuer(found): asserts found is { subjectMapping: string } {
    if (!found) throw new Error("not trusted");
  },
  user(found): asserts found is NonNullable<typeof found> {
    if (!found) throw new Error("no such user");
  },
};

export function trustedIssuerContract(backend: StoreBackend): void {
  describe("trusted issuers", () => {
    it("stores a registration its check accepts, finds, lists and replaces it, with an audit event each time", async () => {
      const { companyId } = backend.subjects();
      const federationClient = freshValue("federated");
      await backend.addClient(
        federationClient,
        clientRegistration({ kind: "backend", grantTypes: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] }),
        "federation-secret",
      );
      const issuer = `https://${freshValue("idp")}.example`;
      const seen: unknown[] = [];
      const trusted = backend.stores().trustedIssuers;
      const first = await trusted.save(
        issuerRegistration(issuer, { clientIds: [federationClient] }),
        async (lookups) => {
          seen.push(await lookups.companyKinds([companyId, "no-such-company"]));
          seen.push(await lookups.clientGrants([federationClient, "no-such-client"]));
        },
        (outcome) => ({ type: `federation.issuer_${outcome}`, details: { issuer } }),
      );
      expect(first).toEqual({ outcome: "added", oldJwksUri: undefined });
      expect(seen[0]).toEqual([{ id: companyId, kind: expect.any(String) }]);
      expect(seen[1]).toEqual([
        {
          id: federationClient,
          tokenEndpointAuthMethod: "client_secret_basic",
          grantTypes: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        },
      ]);
      expect(await trusted.find(issuer)).toEqual({
        issuer,
        keys: { jwks: { keys: [KEY] } },
        clientIds: new Set([federationClient]),
        subjectMapping: "link",
        reach: { companies: [], emailDomains: ["contract.example"] },
      });
      expect((await trusted.list()).find((listed) => listed.issuer === issuer)).toMatchObject({
        clientIds: [federationClient],
        linkedSubjects: 0,
      });
      const second = await trusted.save(
        issuerRegistration(issuer, { jwks: null, jwksUri: "https://keys.example/jwks" }),
        async () => undefined,
        (outcome) => ({ type: `federation.issuer_${outcome}`, details: { issuer } }),
      );
      expect(second).toEqual({ outcome: "updated", oldJwksUri: null });
      forgetTrustedIssuers();
      expect((await trusted.find(issuer))?.keys).toEqual({ jwksUri: "https://keys.example/jwks" });
      const events = await backend.stores().audit.list({ type: "federation.issuer_added" }, 50);
      expect(events.some((event) => JSON.parse(event.details).issuer === issuer)).toBe(true);
    });

    it("writes nothing when the check refuses, and finds no unknown issuer", async () => {
      const issuer = `https://${freshValue("refused")}.example`;
      const trusted = backend.stores().trustedIssuers;
      await expect(
        trusted.save(
          issuerRegistration(issuer),
          async () => {
            throw new Error("refused by the check");
          },
          () => ({ type: "federation.issuer_added" }),
        ),
      ).rejects.toThrow("refused by the check");
      expect(await trusted.find(issuer)).toBeNull();
      expect((await trusted.list()).some((listed) => listed.issuer === issuer)).toBe(false);
    });

    it("links a subject to the user an email names, finds users by email, and removes an issuer with its links", async () => {
      const { email, id } = await newPerson(backend, "linked");
      const issuer = `https://${freshValue("linking")}.example`;
      const trusted = backend.stores().trustedIssuers;
      await trusted.save(
        issuerRegistration(issuer),
        async () => undefined,
        () => ({ type: "federation.issuer_added" }),
      );
      await expect(
        trusted.link({ issuer: `${issuer}/other`, subject: "s-1", email }, accepting, () => ({
          type: "federation.subject_linked",
        })),
      ).rejects.toThrow("not trusted");
      await trusted.link({ issuer, subject: "s-1", email }, accepting, (userId) => ({
        type: "federation.subject_linked",
        details: { linkedUserId: userId },
      }));
      forgetFederatedUsers();
      expect(await trusted.findLinkedUserId(issuer, "s-1")).toBe(id);
      expect(await trusted.findUserIdByEmail(email)).toBe(id);
      expect((await trusted.list()).find((listed) => listed.issuer === issuer)?.linkedSubjects).toBe(1);
      expect(await trusted.remove(issuer, { type: "federation.issuer_removed" })).toEqual({ jwksUri: null });
      expect(await trusted.remove(issuer, { type: "federation.issuer_removed" })).toBeNull();
      forgetTrustedIssuers();
      forgetFederatedUsers();
      expect(await trusted.find(issuer)).toBeNull();
      expect(await trusted.findLinkedUserId(issuer, "s-1")).toBeNull();
    });
  });
}
