/**
 * For tests that run the worker as a program: a DNS server on 127.0.0.1 that answers every question "no such
 * domain" (NXDOMAIN), and records the names asked. With test/use-test-dns.ts preloaded, the program's resolver asks it
 * alone, so what DKIM and SPF find for a prospect's domain does not depend on the machine's resolver or network.
 */
import { createSocket } from 'node:dgram';

export interface NoSuchDomainDns {
  /** host:port, as dns.setServers takes it. */
  server: string;
  /** The names asked so far, lower case. */
  asked: string[];
  close(): Promise<void>;
}

/** The question's name, read from its labels (RFC 1035, 4.1.2); questions carry no compression pointers. */
function questionName(message: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (at < message.length && message[at] !== 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  // The root label's zero, then QTYPE and QCLASS.
  return { name: labels.join('.').toLowerCase(), end: at + 1 + 4 };
}

export function startNoSuchDomainDns(): Promise<NoSuchDomainDns> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query, from) => {
    if (query.length < 17) return;
    const { name, end } = questionName(query);
    asked.push(name);
    const answer = Buffer.from(query.subarray(0, end));
    // QR (an answer), the query's opcode and RD kept, RA set, RCODE 3 (NXDOMAIN); one question, no records.
    answer[2] = 0x80 | (query[2]! & 0x79);
    answer[3] = 0x80 | 3;
    answer.writeUInt16BE(1, 4);
    answer.fill(0, 6, 12);
    socket.send(answer, from.port, from.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      resolve({
        server: `127.0.0.1:${socket.address().port}`,
        asked,
        close: () => new Promise((closed) => socket.close(() => closed())),
      });
    });
  });
}
