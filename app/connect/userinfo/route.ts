import { userinfoEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";
export const GET = userinfoEndpoint.handle;
export const POST = userinfoEndpoint.handle;
export const OPTIONS = userinfoEndpoint.preflight;
