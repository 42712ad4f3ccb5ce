import { catalogInfosEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";

export const GET = catalogInfosEndpoint;
