/**
 * The field an operator's decision on an application carries when sent from the client list (/admin/clients), so that
 * the form route (lib/forms/admin-submission.ts) sends the operator back to the list rather than to the client's page.
 */
export const RETURN_TO_LIST = { field: "return_to", value: "list" } as const;
