import { jwksEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const GET = jwksEndpoint.handle;
export const OPTIONS = jwksEndpoint.preflight;
