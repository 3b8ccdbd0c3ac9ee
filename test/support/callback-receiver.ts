import { createServer, IncomingMessage } from 'http';
import { AddressInfo } from 'net';

export interface ReceivedCallback {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface CallbackReceiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}

/** A client's callback endpoint on loopback: keeps every POST; `status` answers the n-th (1-based), 204 by default. */
export async function startCallbackReceiver(status: (n: number) => number = () => 204): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = status(received.length);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
