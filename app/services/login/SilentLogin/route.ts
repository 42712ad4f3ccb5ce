import { handleSilentLogin } from "@/lib/catalog/silent-login";
import { getServiceContext } from "@/lib/service-context";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleSilentLogin(request, getServiceContext());
