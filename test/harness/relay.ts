// A TCP relay to a database for tests that cut or refuse a process's connections (net.createServer(forwardTo(…))):
// not listening, it refuses new connections (ECONNREFUSED); destroying the kept sockets cuts the open ones.
import { connect, type Socket } from 'node:net';

/** Forwards each client to `target`'s host and port; both sockets are in `sockets` while open. */
export function forwardTo(target: URL, sockets: Set<Socket>): (client: Socket) => void {
  return (client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  };
}
