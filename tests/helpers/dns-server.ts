/**
 * A DNS server on 127.0.0.1 (UDP, a free port) that answers TXT questions from a table, for tests of the real
 * resolver path (node:dns through c-ares): a name in the table gets its records (none: an empty answer, ENODATA), a
 * name in `silent` gets no answer at all (a timeout), any other name NXDOMAIN (ENOTFOUND). RFC 1035 §4.1.
 */
import { createSocket } from "node:dgram";

const TXT = 16;
const IN = 1;

/** The question's name (lower case) and where the question section ends. */
function readQuestion(message: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (message[offset] !== 0) {
    labels.push(message.subarray(offset + 1, offset + 1 + message[offset]).toString("ascii"));
    offset += 1 + message[offset];
  }
  return { name: labels.join(".").toLowerCase(), end: offset + 5 };
}

function txtAnswer(strings: string[]): Buffer {
  const data = Buffer.concat(strings.map((text) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)])));
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  fixed.writeUInt16BE(TXT, 2);
  fixed.writeUInt16BE(IN, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

function answer(query: Buffer, records: string[][] | undefined): Buffer {
  const { end } = readQuestion(query);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // QR, the query's RD, RA; NXDOMAIN (3) for names the table does not hold.
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (records ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records?.length ?? 0, 6);
  return Buffer.concat([header, query.subarray(12, end), ...(records ?? []).map(txtAnswer)]);
}

export async function startDnsServer(
  records: Map<string, string[][]>,
  silent: ReadonlySet<string> = new Set(),
): Promise<{ server: string; close: () => Promise<void> }> {
  const socket = createSocket("udp4");
  socket.on("message", (query, peer) => {
    const { name } = readQuestion(query);
    if (!silent.has(name)) socket.send(answer(query, records.get(name)), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
