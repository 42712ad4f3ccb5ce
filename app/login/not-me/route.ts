import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, POST } = ROUTES["/login/not-me"];
