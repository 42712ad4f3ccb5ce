/**
 * The notice the partner portal shows after a form (`?registered=`, `?changed=`, `?removed=`): what is true of the
 * application now, not when the form was sent, so that the address kept in a tab or bookmark never says "waits for
 * approval" of an application the operator has decided on. Only the company's own applications are named.
 */

/** Where one of the company's applications stands, as the portal's view has it. */
interface ApplicationStanding {
  client: { id: string };
  status: string;
  changeWaiting: boolean;
  reviewNote: string | null;
}

/** A message of the Developer page, the application it names, and whether it tells of a refusal. */
export interface DeveloperNotice {
  key:
    | "registered"
    | "registeredApproved"
    | "registeredRejected"
    | "changed"
    | "changedApproved"
    | "changedRejected"
    | "removed";
  clientId?: string;
  refused?: true;
}

function registeredNotice({ client, status }: ApplicationStanding): DeveloperNotice {
  if (status === "approved") return { key: "registeredApproved", clientId: client.id };
  if (status === "rejected") return { key: "registeredRejected", clientId: client.id, refused: true };
  return { key: "registered", clientId: client.id };
}

/** An approved application's change was rejected when the operators left a note and nothing waits any more. */
function changedNotice({ client, status, changeWaiting, reviewNote }: ApplicationStanding): DeveloperNotice {
  if (status === "pending" || changeWaiting) return { key: "changed", clientId: client.id };
  if (status === "rejected" || reviewNote !== null)
    return { key: "changedRejected", clientId: client.id, refused: true };
  return { key: "changedApproved", clientId: client.id };
}

export function developerNotice(
  query: { registered?: string; changed?: string; removed?: string },
  applications: readonly ApplicationStanding[],
): DeveloperNotice | undefined {
  const find = (id: string | undefined) => applications.find((application) => application.client.id === id);
  const registered = find(query.registered);
  if (registered) return registeredNotice(registered);
  const changed = find(query.changed);
  if (changed) return changedNotice(changed);
  return query.removed && !find(query.removed) ? { key: "removed" } : undefined;
}
