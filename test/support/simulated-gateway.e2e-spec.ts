import { startSimulatedGateway } from './simulated-gateway';

/** Listening TCP servers in this process, once the handles closed in this turn of the loop are gone. */
async function listeningServers(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
}

describe('startSimulatedGateway (test support)', () => {
  it('closes the simulator it started when the gateway cannot start, so nothing keeps the run from ending', async () => {
    const before = await listeningServers();
    await expect(startSimulatedGateway({ env: { PUBLIC_BASE_URL: 'not a url' } })).rejects.toThrow(/PUBLIC_BASE_URL/);
    expect(await listeningServers()).toBe(before);
  });

  it('leaves a simulator it was given listening', async () => {
    const owner = await startSimulatedGateway();
    try {
      const before = await listeningServers();
      await expect(startSimulatedGateway({ sim: owner.sim, env: { PUBLIC_BASE_URL: 'not a url' } })).rejects.toThrow(
        /PUBLIC_BASE_URL/,
      );
      expect(await listeningServers()).toBe(before);
    } finally {
      await owner.close();
    }
  });
});
