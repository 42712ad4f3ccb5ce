/**
 * The registration form's switches (lib/forms/client-registration-form.ts): offline access, DPoP-bound tokens
 * (RFC 9449 §5.2) and pushed authorization requests (RFC 9126 §6) become the metadata's booleans when ticked, only for
 * the kinds they fit, and a refusal of one is shown at its checkbox.
 */
import { describe, expect, it } from "vitest";
import { ClientMetadataError, parseClientMetadata } from "@/lib/admin/client-metadata";
import { problemOf } from "@/lib/forms/admin-form-problem";
import {
  FIELDS_BY_KIND,
  FORM_CLIENT_KINDS,
  metadataOfDraft,
  registrationDraft,
  type FormClientKind,
} from "@/lib/forms/client-registration-form";
import { thrown } from "../../helpers/thrown";

const SWITCHES = {
  dpop_bound_access_tokens: "on",
  require_pushed_authorization_requests: "on",
  offline_access: "on",
};

/** What each kind's form posts at least, so that the metadata is accepted. */
const FILLED: Record<FormClientKind, Record<string, string>> = {
  browser: {
    client_name: "Finder",
    redirect_uris: "https://spa.example/cb",
    allowed_cors_origins: "https://spa.example",
  },
  native: { client_name: "App", redirect_uris: "com.example.app:/cb" },
  web: { client_name: "Shop", redirect_uris: "https://shop.example/cb" },
  device: { client_name: "Edger" },
  backend: { client_name: "Batch", scope: "platform.catalogs.read" },
};

const metadataOf = (kind: FormClientKind, fields: Record<string, string>) =>
  metadataOfDraft(registrationDraft(new URLSearchParams(fields), kind), kind);

describe("the registration form's switches", () => {
  it("offers DPoP-bound tokens to every kind and pushed requests to the kinds that send people to sign in", () => {
    for (const kind of FORM_CLIENT_KINDS) expect(FIELDS_BY_KIND[kind]).toContain("dpop_bound_access_tokens");
    for (const kind of ["browser", "native", "web"] as const)
      expect(FIELDS_BY_KIND[kind]).toContain("require_pushed_authorization_requests");
    expect(FIELDS_BY_KIND.backend).not.toContain("require_pushed_authorization_requests");
    expect(FIELDS_BY_KIND.device).not.toContain("require_pushed_authorization_requests");
  });

  it("keeps a ticked box in the draft, so the page shows it ticked again after a refusal", () => {
    const draft = registrationDraft(new URLSearchParams({ ...FILLED.web, ...SWITCHES }), "web");
    expect(draft).toMatchObject(SWITCHES);
    const backend = registrationDraft(new URLSearchParams({ ...FILLED.backend, ...SWITCHES }), "backend");
    expect(backend).toMatchObject({ dpop_bound_access_tokens: "on" });
    expect(backend).not.toHaveProperty("require_pushed_authorization_requests");
  });

  it("sets the metadata's booleans for ticked boxes and leaves them out otherwise", () => {
    expect(metadataOf("native", { ...FILLED.native, ...SWITCHES })).toMatchObject({
      offline_access: true,
      dpop_bound_access_tokens: true,
      require_pushed_authorization_requests: true,
    });
    expect(metadataOf("browser", { ...FILLED.browser, ...SWITCHES })).toMatchObject({
      dpop_bound_access_tokens: true,
      require_pushed_authorization_requests: true,
    });
    const plain = metadataOf("web", FILLED.web);
    expect(plain).not.toHaveProperty("dpop_bound_access_tokens");
    expect(plain).not.toHaveProperty("require_pushed_authorization_requests");
    const backend = metadataOf("backend", { ...FILLED.backend, ...SWITCHES });
    expect(backend).toMatchObject({ dpop_bound_access_tokens: true });
    expect(backend).not.toHaveProperty("require_pushed_authorization_requests");
  });

  it("registers what was ticked: each kind's metadata passes the validator with the switches on", () => {
    for (const kind of FORM_CLIENT_KINDS) {
      const registration = parseClientMetadata(metadataOf(kind, { ...FILLED[kind], ...SWITCHES }), "platform");
      // A device is a public client of its own: a native one without redirect URIs.
      expect([registration.kind, registration.dpopBoundAccessTokens]).toEqual([
        kind === "device" ? "native" : kind,
        true,
      ]);
      expect(registration.requirePushedAuthorizationRequests).toBe(kind !== "backend" && kind !== "device");
    }
  });

  it("shows a refusal of a switch at its checkbox", () => {
    const implicit = thrown(ClientMetadataError, () =>
      parseClientMetadata(
        {
          ...metadataOf("browser", { ...FILLED.browser, dpop_bound_access_tokens: "on" }),
          grant_types: ["implicit"],
        },
        "platform",
      ),
    );
    expect(problemOf("register", implicit, { byForm: true })).toEqual({
      key: "dpop_bound_access_tokens",
      field: "dpop_bound_access_tokens",
    });
    const pushed = thrown(ClientMetadataError, () =>
      parseClientMetadata(
        { ...metadataOf("backend", FILLED.backend), require_pushed_authorization_requests: true },
        "platform",
      ),
    );
    expect(problemOf("register", pushed, { byForm: true })).toEqual({
      key: "require_pushed_authorization_requests",
      field: "require_pushed_authorization_requests",
    });
  });
});

describe("the client's name in the other page languages", () => {
  it.each(FORM_CLIENT_KINDS.map((kind) => [kind]))(
    "%s: one optional field per language becomes client_name#<code>",
    (kind) => {
      const metadata = metadataOf(kind, {
        ...FILLED[kind],
        client_name_fr: " Boutique de verres ",
        client_name_pl: "Sklep z soczewkami",
        client_name_it: "",
      });
      expect(metadata).toMatchObject({
        "client_name#fr": "Boutique de verres",
        "client_name#pl": "Sklep z soczewkami",
      });
      expect(
        Object.keys(metadata)
          .filter((key) => key.startsWith("client_name#"))
          .sort(),
      ).toEqual(["client_name#fr", "client_name#pl"]);
      expect(parseClientMetadata(metadata, "platform").names).toMatchObject({ fr: "Boutique de verres" });
    },
  );

  it("shows a refused name at the field of its language", () => {
    const refused = thrown(ClientMetadataError, () =>
      parseClientMetadata(metadataOf("web", { ...FILLED.web, client_name_nl: "x".repeat(501) }), "platform"),
    );
    expect(problemOf("register", refused, { byForm: true })).toMatchObject({
      key: "client_name",
      field: "client_name_nl",
    });
  });
});
