import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { checkHealth } from "@/lib/health/check-health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { httpStatus, report } = await checkHealth(getDb(), getConfig().database.provider);
  return Response.json(report, { status: httpStatus, headers: { "Cache-Control": "no-store" } });
}
