import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, OPTIONS } = ROUTES["/.well-known/openid-configuration/jwks"];
