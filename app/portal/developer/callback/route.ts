import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET } = ROUTES["/portal/developer/callback"];
