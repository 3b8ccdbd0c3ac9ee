import { Server, Socket, createServer, connect } from 'net';

/**
 * A loopback TCP proxy in front of a server (PostgreSQL in the outage tests), so a test can take
 * that server away from the gateway without touching it: `down()` cuts every connection and resets
 * each new one at once, `hang()` cuts every connection and leaves new ones unanswered (a server
 * that accepts but never speaks), `up()` forwards again.
 */
export class TcpProxy {
  private mode: 'up' | 'down' | 'hang' = 'up';
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxied: { to?: TcpProxy } = {};
    const server = createServer((client) => proxied.to!.accept(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxied.to = new TcpProxy(server, (server.address() as { port: number }).port);
    return proxied.to;
  }

  up(): void {
    this.mode = 'up';
  }

  down(): void {
    this.mode = 'down';
    this.cutAll();
  }

  hang(): void {
    this.mode = 'hang';
    this.cutAll();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, host: string, port: number): void {
    this.track(client);
    if (this.mode === 'down') return void client.destroy();
    if (this.mode === 'hang') return;
    const upstream = connect(port, host);
    this.track(upstream);
    client.pipe(upstream).pipe(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
