import { PAGES } from "@/lib/http/paths";
import { pageData } from "@/lib/pages/page-data";
import { platformDashboard } from "@/lib/rights/dashboard";
import { Dashboard } from "@/app/_components/dashboard/dashboard";

export const dynamic = "force-dynamic";

/** The operator's home: the platform's week and what waits (lib/rights/dashboard.ts checks that it is an operator). */
export default async function AdminDashboardPage() {
  const view = await pageData(PAGES.admin, (actor) => platformDashboard(actor));
  return <Dashboard view={view} />;
}
