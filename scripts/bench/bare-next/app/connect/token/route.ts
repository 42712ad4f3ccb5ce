/**
 * The ceiling of route-handler mode: a Next.js route handler that reads the form and answers with one freshly signed
 * JWT, nothing else. `npm run bench` builds this app and serves it with plain `next start` beside OptiGate's.
 */
import { nodeSigner } from "../../../bare-signer";

export const dynamic = "force-dynamic";

const signToken = nodeSigner("ES256");

export async function POST(request: Request): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  if (!form.get("grant_type")) return Response.json({ error: "invalid_request" }, { status: 400 });
  return Response.json(
    { access_token: signToken(), token_type: "Bearer", expires_in: 3600 },
    { headers: { "cache-control": "no-store" } },
  );
}
