import { introspectionEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const POST = introspectionEndpoint;
