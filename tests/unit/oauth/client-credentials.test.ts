import { describe, expect, it } from "vitest";
import { readClientCredentials } from "@/lib/oauth/clients/client-authentication";
import { OAuthError } from "@/lib/oauth/errors";
import { sessionCookie } from "@/lib/session/session-cookie";
import { thrown } from "../../helpers/thrown";

const request = (authorization?: string) => new Request("http://localhost/connect/token", { method: "POST", headers: authorization ? { authorization } : {} });
const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

describe("readClientCredentials", () => {
  it("form-decodes HTTP Basic credentials (RFC 6749 §2.3.1)", () => {
    expect(readClientCredentials(request(basic("shop%3Aeast:p%40ss+word%2B")), new Map())).toEqual({ clientId: "shop:east", secret: "p@ss word+", method: "client_secret_basic" });
  });
  it("reads client_secret_post and public clients", () => {
    expect(readClientCredentials(request(), new Map([["client_id", "a"], ["client_secret", "s"]]))).toEqual({ clientId: "a", secret: "s", method: "client_secret_post" });
    expect(readClientCredentials(request(), new Map([["client_id", "a"]]))).toEqual({ clientId: "a", method: "none" });
  });
  it("refuses two methods at once, a differing client_id, malformed Basic, and no client at all", () => {
    expect(thrown(OAuthError, () => readClientCredentials(request(basic("a:s")), new Map([["client_secret", "s"]]))).code).toBe("invalid_request");
    expect(thrown(OAuthError, () => readClientCredentials(request(basic("a:s")), new Map([["client_id", "b"]]))).code).toBe("invalid_request");
    expect(thrown(OAuthError, () => readClientCredentials(request(basic("no-colon")), new Map())).code).toBe("invalid_client");
    expect(thrown(OAuthError, () => readClientCredentials(request(), new Map())).code).toBe("invalid_client");
  });
});

describe("session cookie", () => {
  it("is HttpOnly and SameSite=Lax, and Secure when OptiGate is served over https", () => {
    expect(sessionCookie("v", "http://localhost:3000")).toBe("optigate_session=v; Path=/; SameSite=Lax; HttpOnly; Max-Age=43200");
    expect(sessionCookie("v", "https://id.example.com")).toContain("; Secure");
  });
});
