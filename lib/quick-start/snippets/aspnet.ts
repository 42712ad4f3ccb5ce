/**
 * ASP.NET Core's OpenID Connect handler (Program.cs, .NET 8 or later): the code flow with PKCE, the secret from the
 * configuration, the claims from userinfo, with the application's values written in.
 */
import { isPlainHttp, literal, type QuickStartValues, type Snippet } from "../quick-start-values";

/** The line that lets the handler read the demo's plain-http discovery document, with the comment naming it. */
export const ASPNET_PLAIN_HTTP = `        // The demo's issuer is plain http: drop this line in production (https).
        options.RequireHttpsMetadata = false;
`;

export function aspnetSnippet(values: QuickStartValues): Snippet {
  const { issuer, client } = values;
  const redirectUri = new URL(client.redirectUris[0]);
  const scopes = client.allowedScopes.map((scope) => `        options.Scope.Add(${literal(scope)});`).join("\n");
  const text = `// Program.cs: signs people in with OptiGate through ASP.NET Core's OpenID Connect handler (.NET 8+).
// dotnet add package Microsoft.AspNetCore.Authentication.OpenIdConnect
// Serve it where the redirect URI points: dotnet run --urls ${redirectUri.origin}
// The client secret comes from the configuration: OPTIGATE_CLIENT_SECRET in the environment or in user secrets.
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.IdentityModel.Protocols.OpenIdConnect;

var builder = WebApplication.CreateBuilder(args);

builder.Services
    .AddAuthentication(options =>
    {
        options.DefaultScheme = CookieAuthenticationDefaults.AuthenticationScheme;
        options.DefaultChallengeScheme = OpenIdConnectDefaults.AuthenticationScheme;
    })
    .AddCookie()
    .AddOpenIdConnect(options =>
    {
        options.Authority = ${literal(issuer)};
${isPlainHttp(values) ? ASPNET_PLAIN_HTTP : ""}        options.ClientId = ${literal(client.id)};
        options.ClientSecret = builder.Configuration["OPTIGATE_CLIENT_SECRET"];
        options.ResponseType = OpenIdConnectResponseType.Code;
        options.UsePkce = true;
        // The path of the registered redirect URI ${redirectUri.href}
        options.CallbackPath = ${literal(redirectUri.pathname)};
        options.Scope.Clear();
${scopes}
        options.GetClaimsFromUserInfoEndpoint = true;
        options.MapInboundClaims = false;
        options.TokenValidationParameters.NameClaimType = "name";
        options.SaveTokens = true;
    });
builder.Services.AddAuthorization();

var app = builder.Build();
app.UseAuthentication();
app.UseAuthorization();

// A page that needs a signed-in user sends the browser to OptiGate first; this one shows the user's claims.
app.MapGet("/", (HttpContext context) => context.User.Claims.Select(claim => new { claim.Type, claim.Value }))
    .RequireAuthorization();

app.Run();
`;
  return {
    id: "aspnet",
    title: "ASP.NET Core (OpenID Connect handler)",
    files: [{ name: "Program.cs", language: "csharp", text }],
  };
}
