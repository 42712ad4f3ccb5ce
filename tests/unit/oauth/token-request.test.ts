import { describe, expect, it } from "vitest";
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { OAuthError } from "@/lib/oauth/errors";
import { validateTokenRequest } from "@/lib/oauth/token/token-request";
import { thrown } from "../../helpers/thrown";

const web = {
  grantTypes: ["authorization_code", "refresh_token"],
  tokenEndpointAuthMethod: "client_secret_basic",
} as ClientWithSecrets;
const backend = {
  grantTypes: ["client_credentials"],
  tokenEndpointAuthMethod: "client_secret_basic",
} as ClientWithSecrets;
const refused = (params: Record<string, string>, client: ClientWithSecrets) =>
  thrown(OAuthError, () => validateTokenRequest(new Map(Object.entries(params)), client));

describe("validateTokenRequest", () => {
  it("reads what each grant needs into a typed request", () => {
    expect(
      validateTokenRequest(
        new Map([
          ["grant_type", "authorization_code"],
          ["code", "c"],
          ["redirect_uri", "https://a/cb"],
          ["code_verifier", "v"],
        ]),
        web,
      ),
    ).toEqual({
      grantType: "authorization_code",
      code: "c",
      redirectUri: "https://a/cb",
      codeVerifier: "v",
    });
    expect(
      validateTokenRequest(
        new Map([
          ["grant_type", "refresh_token"],
          ["refresh_token", "r"],
          ["scope", "openid"],
        ]),
        web,
      ),
    ).toEqual({ grantType: "refresh_token", refreshToken: "r", scope: "openid" });
    expect(validateTokenRequest(new Map([["grant_type", "client_credentials"]]), backend)).toEqual({
      grantType: "client_credentials",
      scope: undefined,
    });
  });

  it("refuses a missing or unknown grant type, one the client may not use, and missing parameters", () => {
    expect(refused({}, web)).toMatchObject({ code: "invalid_request", description: "grant_type is missing" });
    expect(refused({ grant_type: "password" }, web).code).toBe("unsupported_grant_type");
    expect(refused({ grant_type: "toString" }, web).code).toBe("unsupported_grant_type");
    expect(refused({ grant_type: "client_credentials" }, web).code).toBe("unauthorized_client");
    expect(refused({ grant_type: "authorization_code", redirect_uri: "https://a/cb" }, web).description).toBe(
      "code is missing",
    );
    expect(refused({ grant_type: "authorization_code", code: "c" }, web).description).toBe("redirect_uri is missing");
    expect(refused({ grant_type: "refresh_token" }, web).description).toBe("refresh_token is missing");
  });

  it("keeps client credentials for confidential clients", () => {
    expect(refused({ grant_type: "client_credentials" }, { ...backend, tokenEndpointAuthMethod: "none" }).code).toBe(
      "unauthorized_client",
    );
  });
});
