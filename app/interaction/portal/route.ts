import { handlePortalSubmission } from "@/lib/interaction/portal-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handlePortalSubmission(request, getServiceContext());
