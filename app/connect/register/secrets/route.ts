import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { POST } = ROUTES["/connect/register/secrets"];
