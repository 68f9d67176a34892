import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the Auth Emulator that a test can switch off and on, to see
 * what readers get while the identity service cannot be reached and after it returns.
 */
export class SwitchableProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  up = true;

  private constructor(target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (!this.up) {
        client.destroy();
        return;
      }
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(targetHost: string): Promise<{ proxy: SwitchableProxy; host: string }> {
    const [host, port] = targetHost.split(':') as [string, string];
    const proxy = new SwitchableProxy({ host, port: Number(port) });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const address = proxy.server.address();
    if (!address || typeof address === 'string') throw new Error('proxy did not listen');
    return { proxy, host: `127.0.0.1:${address.port}` };
  }

  down(): void {
    this.up = false;
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    this.down();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
