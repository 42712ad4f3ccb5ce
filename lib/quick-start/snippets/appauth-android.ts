/**
 * AppAuth-Android (Kotlin), for a mobile app whose redirect URI uses its own scheme (RFC 8252 §7.1): the code flow
 * with PKCE and state through a Custom Tab, no secret, the application's values written in.
 */
import { isPlainHttp, kotlinLiteral, scopeOf, type QuickStartValues, type Snippet } from "../quick-start-values";

/** The app's first redirect URI with a scheme of its own (not http or https), if it has one. */
export function privateSchemeRedirectUri(values: QuickStartValues): string | undefined {
  return values.client.redirectUris.find((uri) => !/^https?:/.test(uri));
}

const PLAIN_HTTP_IMPORTS = "import java.net.HttpURLConnection\nimport java.net.URL\n";
const DEFAULT_CONFIGURATION = "val appAuthConfiguration: AppAuthConfiguration = AppAuthConfiguration.DEFAULT\n";

/** The settings that let AppAuth reach the demo's plain-http issuer, with the comment naming them. */
export function androidPlainHttp(issuer: string): string {
  const port = new URL(issuer).port || "80";
  return `// The demo's issuer is plain http: drop plainHttp and these two settings in production (https).
// An emulator reaches the demo after \`adb reverse tcp:${port} tcp:${port}\`; a debug build must allow cleartext.
val plainHttp = ConnectionBuilder { uri -> URL(uri.toString()).openConnection() as HttpURLConnection }
val appAuthConfiguration: AppAuthConfiguration = AppAuthConfiguration.Builder()
    .setConnectionBuilder(plainHttp)
    .setSkipIssuerHttpsCheck(true)
    .build()
`;
}

export function appAuthAndroidSnippet(values: QuickStartValues): Snippet {
  const redirectUri = privateSchemeRedirectUri(values)!;
  const plainHttp = isPlainHttp(values);
  const text = `// SignIn.kt: signs people in with OptiGate from an Android app.
// build.gradle.kts: implementation("net.openid:appauth:0.11.1") and, in defaultConfig,
// manifestPlaceholders["appAuthRedirectScheme"] = ${kotlinLiteral(new URL(redirectUri).protocol.slice(0, -1))}
import android.app.Activity
import android.content.Intent
import android.net.Uri
${plainHttp ? PLAIN_HTTP_IMPORTS : ""}import net.openid.appauth.AppAuthConfiguration
import net.openid.appauth.AuthorizationRequest
import net.openid.appauth.AuthorizationResponse
import net.openid.appauth.AuthorizationService
import net.openid.appauth.AuthorizationServiceConfiguration
import net.openid.appauth.ResponseTypeValues
import net.openid.appauth.TokenResponse
${plainHttp ? "import net.openid.appauth.connectivity.ConnectionBuilder\n" : ""}
val ISSUER: Uri = Uri.parse(${kotlinLiteral(values.issuer)})
const val CLIENT_ID = ${kotlinLiteral(values.client.id)}
val REDIRECT_URI: Uri = Uri.parse(${kotlinLiteral(redirectUri)})
const val SCOPE = ${kotlinLiteral(scopeOf(values))}

${plainHttp ? androidPlainHttp(values.issuer) : DEFAULT_CONFIGURATION}
/** Opens OptiGate in a Custom Tab; AppAuth adds PKCE (S256) and state to the request. */
fun signIn(activity: Activity, service: AuthorizationService, requestCode: Int) {
    AuthorizationServiceConfiguration.fetchFromIssuer(ISSUER, { configuration, error ->
        if (configuration == null) throw IllegalStateException("OptiGate's discovery failed", error)
        val request = AuthorizationRequest.Builder(configuration, CLIENT_ID, ResponseTypeValues.CODE, REDIRECT_URI)
            .setScope(SCOPE)
            .build()
        activity.startActivityForResult(service.getAuthorizationRequestIntent(request), requestCode)
    }, appAuthConfiguration.connectionBuilder)
}

/** In onActivityResult: AppAuth checks the state; the code is redeemed with the PKCE verifier. */
fun completeSignIn(data: Intent, service: AuthorizationService, signedIn: (TokenResponse?) -> Unit) {
    val response = AuthorizationResponse.fromIntent(data) ?: return signedIn(null)
    service.performTokenRequest(response.createTokenExchangeRequest()) { tokens, _ -> signedIn(tokens) }
}

// One service per activity, closed in onDestroy: AuthorizationService(activity, appAuthConfiguration)
`;
  return {
    id: "appauth-android",
    title: "AppAuth-Android (Kotlin)",
    files: [{ name: "SignIn.kt", language: "kotlin", text }],
  };
}
