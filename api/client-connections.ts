/**
 * A bound on the connections one client holds open at once, so that one client cannot take every socket the
 * process has (each costs a file descriptor and memory until its timeout lets it go). A client is the socket's
 * address widened to its network (clientNetwork: an IPv4 address, an IPv6 /64), the same as the request limits.
 * A connection past the bound is closed at once, before a byte of it is read.
 */
import type { Server } from 'node:net';
import type { Logger } from 'pino';
import { clientNetwork } from './client-network.js';

export function boundConnectionsPerClient(server: Server, maxPerClient: number, logger: Logger): void {
  const open = new Map<string, number>();
  // Clients told of in the log since they last went under the bound: one line per episode, not per connection.
  const reported = new Set<string>();
  server.on('connection', (socket) => {
    const client = clientNetwork(socket.remoteAddress ?? '');
    const held = open.get(client) ?? 0;
    if (held >= maxPerClient) {
      if (!reported.has(client)) {
        reported.add(client);
        logger.warn({ client, open: held }, 'connection refused: the client holds the most connections allowed');
      }
      socket.destroy();
      return;
    }
    open.set(client, held + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
      if (left < maxPerClient) reported.delete(client);
    });
  });
}
