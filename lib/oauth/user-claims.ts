/** The user's claims released by the `profile` and `email` scopes (OpenID Connect Core §5.4). */
import type { UserWithCompany } from "@/lib/store/models/user";

export function userClaims(user: UserWithCompany, scopes: string[]): Record<string, unknown> {
  return {
    ...(scopes.includes("profile")
      ? {
          name: `${user.givenName} ${user.familyName}`,
          given_name: user.givenName,
          family_name: user.familyName,
          ...(user.preferredLanguage ? { locale: user.preferredLanguage } : {}),
          company: user.company.name,
        }
      : {}),
    ...(scopes.includes("email") ? { email: user.email, email_verified: user.emailVerified } : {}),
  };
}
