import { handleConsentSubmission } from "@/lib/interaction/consent-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleConsentSubmission(request, getServiceContext());
