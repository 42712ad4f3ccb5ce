import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS } = ROUTES["/v2/[...path]"];
