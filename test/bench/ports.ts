import { type AddressInfo, createServer } from 'node:net';

/** A loopback port nothing listens on now (the benchmarks' targets start on one). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}
