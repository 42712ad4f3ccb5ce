import { handleAdminSubmission } from "@/lib/interaction/admin-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleAdminSubmission(request, getServiceContext());
