/**
 * The body of an answer OptiGate fetched, read whole but never past `maxBytes`: a declared length over it is refused
 * before reading, an undeclared one as soon as it is passed (the connection is closed then), so that a partner's
 * server cannot make OptiGate hold more than it asked for.
 */
import type { IncomingMessage } from "node:http";

export async function readCappedAnswer(
  response: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (throwing) destroys the response.
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
