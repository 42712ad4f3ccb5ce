import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { POST, GET, PUT, DELETE } = ROUTES["/connect/register"];
