import { handleLoginSubmission } from "@/lib/interaction/login-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleLoginSubmission(request, getServiceContext());
