/**
 * The server snippets that no toolchain here can run (ASP.NET Core, Spring Security) hold the application's values,
 * PKCE, and, for the demo's plain-http issuer only, the line production drops, named by its comment; Spring's YAML
 * parses. The Express snippet's plain-http line likewise (tests/integration/quick-start runs that snippet).
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ASPNET_PLAIN_HTTP, aspnetSnippet } from "@/lib/quick-start/snippets/aspnet";
import { EXPRESS_PLAIN_HTTP, expressSnippet } from "@/lib/quick-start/snippets/express";
import { springSnippet } from "@/lib/quick-start/snippets/spring";
import { DEMO_ISSUER, PRODUCTION_ISSUER, valuesOf } from "./quick-start-fixtures";

const text = (snippet: { files: { name: string; text: string }[] }, name: string) =>
  snippet.files.find((file) => file.name === name)!.text;

describe("the ASP.NET Core snippet", () => {
  const program = text(aspnetSnippet(valuesOf("web")), "Program.cs");

  it("holds the issuer, the client id, the redirect URI's path and each scope, with PKCE and the code flow", () => {
    for (const line of [
      `options.Authority = "${DEMO_ISSUER}";`,
      'options.ClientId = "praxissoft-web";',
      'options.ClientSecret = builder.Configuration["OPTIGATE_CLIENT_SECRET"];',
      'options.CallbackPath = "/callback";',
      "options.ResponseType = OpenIdConnectResponseType.Code;",
      "options.UsePkce = true;",
      ...["openid", "profile", "email", "platform.catalogs.read"].map((scope) => `options.Scope.Add("${scope}");`),
    ])
      expect(program).toContain(line);
    expect(program).toContain("dotnet run --urls http://localhost:4000");
  });

  it("lets the handler read a plain-http issuer with a line named for dropping, and only then", () => {
    expect(ASPNET_PLAIN_HTTP).toMatch(
      /\/\/ .*drop this line in production.*\n\s+options\.RequireHttpsMetadata = false;\n$/,
    );
    expect(program).toContain(ASPNET_PLAIN_HTTP);
    const production = text(aspnetSnippet(valuesOf("web", PRODUCTION_ISSUER)), "Program.cs");
    expect(production).not.toContain("RequireHttpsMetadata");
    expect(production).toContain(`options.Authority = "${PRODUCTION_ISSUER}";`);
  });

  it("balances its braces and parentheses", () => {
    for (const [open, close] of ["{}", "()", "[]"])
      expect(program.split(open).length, open).toBe(program.split(close).length);
  });
});

describe("the Spring Security snippet", () => {
  const yaml = (values = valuesOf("web")) => text(springSnippet(values), "application.yml");
  const client = (document: string) => parse(document).spring.security.oauth2.client;

  it("parses as YAML into the registration and the provider, the secret from the environment", () => {
    expect(client(yaml())).toEqual({
      registration: {
        optigate: {
          provider: "optigate",
          "client-id": "praxissoft-web",
          "client-secret": "${OPTIGATE_CLIENT_SECRET}",
          "client-authentication-method": "client_secret_basic",
          "authorization-grant-type": "authorization_code",
          "redirect-uri": "http://localhost:4000/callback",
          scope: ["openid", "profile", "email", "platform.catalogs.read"],
        },
      },
      provider: { optigate: { "issuer-uri": DEMO_ISSUER, "user-name-attribute": "sub" } },
    });
  });

  it("says that PKCE is on, and how Spring takes the answer at a redirect path of the application's own", () => {
    expect(yaml()).toMatch(/# .*Spring Security 7 sends PKCE with every authorization_code\n# registration\./);
    expect(yaml()).toContain('endpoint.baseUri("/callback")');
    const springPath = valuesOf({
      client_id: "praxissoft-spring",
      redirect_uris: ["https://web.praxissoft.example/x", "https://web.praxissoft.example/login/oauth2/code/optigate"],
      scope: "openid",
    });
    expect(client(yaml(springPath)).registration.optigate["redirect-uri"]).toBe(
      "https://web.praxissoft.example/login/oauth2/code/optigate",
    );
    expect(yaml(springPath)).not.toContain("baseUri");
  });

  it("names the plain-http issuer in a comment for the demo only", () => {
    expect(yaml()).toMatch(/# The demo's issuer is plain http.*\n\s+issuer-uri: "http:\/\/localhost:3000"\n/);
    expect(yaml(valuesOf("web", PRODUCTION_ISSUER))).not.toContain("plain http");
  });
});

describe("the Express snippet", () => {
  const server = (issuer?: string) => text(expressSnippet(valuesOf("web", issuer)), "server.mjs");

  it("allows openid-client plain http for the demo's issuer only, in a line named for dropping", () => {
    expect(EXPRESS_PLAIN_HTTP).toMatch(
      /\/\/ .*drop this line in production.*\n\s+\{ execute: \[oidc\.allowInsecureRequests\] \},\n$/,
    );
    expect(server()).toContain(EXPRESS_PLAIN_HTTP);
    expect(server(PRODUCTION_ISSUER)).not.toContain("allowInsecureRequests");
    expect(server()).toContain('code_challenge_method: "S256"');
  });
});
