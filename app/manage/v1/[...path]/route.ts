import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = ROUTES["/manage/v1/[...path]"];
