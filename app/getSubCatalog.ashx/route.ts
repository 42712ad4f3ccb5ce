import { subCatalogEndpoint } from "@/lib/server/protocol-endpoints";

export const dynamic = "force-dynamic";

export const GET = subCatalogEndpoint;
