/** The shortest password this deployment accepts (PASSWORD_MIN_LENGTH), for the pages that ask for a new one. */
import "server-only";
import { getServiceContext } from "@/lib/service-context";

export const passwordMinLength = (): number => getServiceContext().config.passwordMinLength;
