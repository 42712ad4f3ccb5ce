import { discoveryEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const GET = discoveryEndpoint.handle;
export const OPTIONS = discoveryEndpoint.preflight;
