import { Socket, createServer } from 'net';
import { reservePort } from './ports';

function listenOn(port: number): Promise<{ close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({ close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}

function connectFrom(localPort: number, to: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect({ host: '127.0.0.1', port: to, localAddress: '127.0.0.1', localPort }, () => resolve(socket));
  });
}

describe('reservePort (test support)', () => {
  it('holds the port until release: nothing else can listen on it or take it as a local end, then it is free', async () => {
    const reserved = await reservePort();
    const target = await reservePort();
    await expect(listenOn(reserved.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await expect(connectFrom(reserved.port, target.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await reserved.release();
    const server = await listenOn(reserved.port);
    await server.close();
    await target.release();
  });
});
