import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, POST, PATCH, PUT, DELETE, OPTIONS } = ROUTES["/v2/[...path]"];
