/**
 * What every platform API call reads about its caller: the token's user with the company they belong to now, or a
 * backend client's company, each with the company's active registrations and their subscriptions. One named
 * statement each on the driver (lib/db/statements/api-callers.ts), since it runs on the API's hot path.
 */
export { companyAsCaller, userAsCaller } from "@/lib/db/statements/api-callers";
