import { handleSignOutSubmission } from "@/lib/interaction/signout-submission";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleSignOutSubmission(request, getServiceContext());
