import { tokenEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const POST = tokenEndpoint.handle;
export const OPTIONS = tokenEndpoint.preflight;
