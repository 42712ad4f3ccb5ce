/**
 * Baselines measured in the same run as OptiGate: the raw signing rates of jose and node:crypto, and a bare
 * node:http endpoint that signs the same kind of JWT per request. Run as a child process on the server's core:
 *   --sign-rate        prints JSON {"jose ES256": ops/s, ...}
 *   --serve <port> [ES256|RS256]   serves POST / with a freshly signed access token (ES256 by default)
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import { importPKCS8, SignJWT } from "jose";
import { claims, nodeSigner } from "./bare-next/bare-signer";

async function joseSigner(alg: "ES256" | "RS256") {
  const { privateKey } =
    alg === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = await importPKCS8(privateKey.export({ type: "pkcs8", format: "pem" }).toString(), alg);
  return () => new SignJWT(claims()).setProtectedHeader({ alg, kid: "k", typ: "at+jwt" }).sign(key);
}

async function rate(signOnce: () => unknown, milliseconds = 1000): Promise<number> {
  const end = performance.now() + milliseconds;
  let count = 0;
  while (performance.now() < end) {
    await signOnce();
    count++;
  }
  return Math.round((count * 1000) / milliseconds);
}

async function signRates(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const alg of ["ES256", "RS256"] as const) {
    await rate(nodeSigner(alg), 200);
    result[`jose ${alg}`] = await rate(await joseSigner(alg));
    result[`node:crypto ${alg}`] = await rate(nodeSigner(alg));
  }
  return result;
}

function serve(port: number, alg: "ES256" | "RS256"): void {
  const signToken = nodeSigner(alg);
  createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const body = JSON.stringify({ access_token: signToken(), token_type: "Bearer", expires_in: 3600 });
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      response.end(body);
    });
  }).listen(port, "127.0.0.1", () => console.log("ready"));
}

const [mode, argument, algArgument] = process.argv.slice(2);
if (mode === "--sign-rate") signRates().then((result) => console.log(JSON.stringify(result)));
else if (mode === "--serve") serve(Number(argument), algArgument === "RS256" ? "RS256" : "ES256");
else throw new Error("usage: baselines.ts --sign-rate | --serve <port> [ES256|RS256]");
