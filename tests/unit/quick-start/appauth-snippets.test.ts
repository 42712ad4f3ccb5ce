/**
 * The AppAuth snippets (no toolchain here runs them) hold the application's issuer, client id, redirect URI and
 * scopes, ask for PKCE, and carry what a plain-http issuer needs only when the issuer is one, named by its comment.
 */
import { describe, expect, it } from "vitest";
import { androidPlainHttp, appAuthAndroidSnippet } from "@/lib/quick-start/snippets/appauth-android";
import { appAuthBrowserSnippet } from "@/lib/quick-start/snippets/appauth-browser";
import { appAuthDesktopSnippet, LOOPBACK_PORT } from "@/lib/quick-start/snippets/appauth-desktop";
import { DEMO_ISSUER, PRODUCTION_ISSUER, valuesOf } from "./quick-start-fixtures";

const only = (snippet: { files: { text: string }[] }) => snippet.files[0].text;

describe("the AppAuth-JS snippets", () => {
  it("fill in a single-page app's values and ask for PKCE", () => {
    const code = only(appAuthBrowserSnippet(valuesOf("browser")));
    for (const line of [
      `const ISSUER = "${DEMO_ISSUER}";`,
      'const CLIENT_ID = "praxissoft-spa";',
      'const REDIRECT_URI = "http://localhost:5173/callback";',
      'const SCOPE = "openid profile";',
      "true, // PKCE (S256)",
      "extras: { code_verifier: request.internal.code_verifier },",
    ])
      expect(code).toContain(line);
    expect(code).toMatch(/\/\/ The demo's issuer is plain http.*\nconst ISSUER/);
    expect(only(appAuthBrowserSnippet(valuesOf("browser", PRODUCTION_ISSUER)))).not.toContain("plain http");
  });

  it("take a desktop app's answer on its registered loopback port, or on one of the app's choosing", () => {
    const registered = only(appAuthDesktopSnippet(valuesOf("native")));
    expect(registered).toContain('const REDIRECT_URI = "http://127.0.0.1:8765/done";');
    expect(registered).toContain("const PORT = 8765;");
    expect(registered).toContain('const CLIENT_ID = "praxissoft-desktop";');
    expect(registered).toContain("true, // PKCE (S256)");
    // A mobile app's scheme cannot reach a desktop app: it signs in on 127.0.0.1, which OptiGate allows on any port.
    const chosen = only(appAuthDesktopSnippet(valuesOf("mobile")));
    expect(chosen).toContain(`const REDIRECT_URI = "http://127.0.0.1:${LOOPBACK_PORT}/callback";`);
    expect(chosen).toContain(`const PORT = ${LOOPBACK_PORT};`);
    expect(chosen).toContain('const SCOPE = "openid profile offline_access";');
  });
});

describe("the AppAuth-Android snippet", () => {
  const code = only(appAuthAndroidSnippet(valuesOf("mobile")));

  it("fills in the app's values and its redirect scheme", () => {
    for (const line of [
      `val ISSUER: Uri = Uri.parse("${DEMO_ISSUER}")`,
      'const val CLIENT_ID = "praxissoft-mobile"',
      'val REDIRECT_URI: Uri = Uri.parse("com.praxissoft.app:/callback")',
      'const val SCOPE = "openid profile offline_access"',
      'manifestPlaceholders["appAuthRedirectScheme"] = "com.praxissoft.app"',
      "AuthorizationRequest.Builder(configuration, CLIENT_ID, ResponseTypeValues.CODE, REDIRECT_URI)",
    ])
      expect(code).toContain(line);
    expect(code).toMatch(/AppAuth adds PKCE \(S256\)/);
  });

  it("reaches a plain-http issuer only with settings named for dropping, and only for such an issuer", () => {
    expect(androidPlainHttp(DEMO_ISSUER)).toMatch(/^\/\/ .*drop plainHttp and these two settings in production/);
    expect(androidPlainHttp(DEMO_ISSUER)).toContain("adb reverse tcp:3000 tcp:3000");
    expect(code).toContain(androidPlainHttp(DEMO_ISSUER));
    expect(code).toContain(".setSkipIssuerHttpsCheck(true)");
    const production = only(appAuthAndroidSnippet(valuesOf("mobile", PRODUCTION_ISSUER)));
    expect(production).not.toMatch(/plainHttp|setSkipIssuerHttpsCheck|HttpURLConnection/);
    expect(production).toContain("AppAuthConfiguration.DEFAULT");
  });
});
