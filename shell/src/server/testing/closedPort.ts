import { once } from 'node:events';
import net from 'node:net';

/** A loopback port nobody listens on (taken, then released): a service that is down. */
export async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
