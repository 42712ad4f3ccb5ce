import { fetchCatalogs, type Catalog } from "@/lib/optigate";
import { currentSession } from "@/lib/current-session";
import { SignInButton } from "./_components/sign-in-button";

export const dynamic = "force-dynamic";

async function catalogsOrError(accessToken: string): Promise<Catalog[] | string> {
  try {
    return await fetchCatalogs(accessToken);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export default async function Home() {
  const session = await currentSession();
  if (!session?.accessToken || session.error) {
    return (
      <>
        <h1>Partner portal</h1>
        {session?.error ? (
          <p className="error">Your sign-in at OptiGate has ended. Please sign in again.</p>
        ) : (
          <p>Sign in with your OptiGate account to see your catalogs.</p>
        )}
        <SignInButton label="Sign in with OptiGate" />
      </>
    );
  }
  const catalogs = await catalogsOrError(session.accessToken);
  const expiresAt = new Date((session.expiresAt ?? 0) * 1000);
  return (
    <>
      <h1>Partner portal</h1>
      <p>
        Signed in as <strong data-testid="user-name">{session.name}</strong>{" "}
        <span className="muted">({session.email})</span>
      </p>
      <h2>Your catalogs</h2>
      {typeof catalogs === "string" ? (
        <p className="error">{catalogs}</p>
      ) : catalogs.length === 0 ? (
        <p>No catalogs are available to you.</p>
      ) : (
        <ul data-testid="catalogs">
          {catalogs.map((catalog) => (
            <li key={`${catalog.supplierName}/${catalog.catalogId}`}>
              {catalog.supplierName}: {catalog.name} ({catalog.catalogId})
              {catalog.latestRevision ? `, revision ${catalog.latestRevision.number}` : ""}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action="/logout">
        <button type="submit">Sign out</button>
      </form>
      <p
        className="muted"
        data-testid="token-status"
        data-expires-at={session.expiresAt}
        data-refresh-count={session.refreshCount}
      >
        This app renews its access to OptiGate on its own: the current access token is valid until{" "}
        {expiresAt.toLocaleTimeString("en-GB", { timeZone: "UTC" })} UTC and has been renewed {session.refreshCount}{" "}
        times.
      </p>
    </>
  );
}
