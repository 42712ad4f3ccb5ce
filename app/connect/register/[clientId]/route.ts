import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, PUT, DELETE } = ROUTES["/connect/register/[clientId]"];
