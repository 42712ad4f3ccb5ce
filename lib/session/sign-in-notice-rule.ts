/**
 * Whether a company's people are told of sign-ins from browsers new to their accounts: the company's own switch, or
 * its kind's default, on for the operator (whose people run the platform) and off for the others.
 */
import type { Company } from "@/lib/store/models/user";

export const signInNoticesOn = (company: Pick<Company, "kind" | "signInNotices">): boolean =>
  company.signInNotices ?? company.kind === "operator";
