import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/** s3rver ships no types: the part the tests use. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as S3rverClass;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** What a gateway needs to use this server as its result store (s3rver accepts these fixed credentials). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on loopback (s3rver, from npm: no binary to download), standing in for
 * AWS S3, MinIO or R2 in tests. Its objects live in a temporary directory removed on close.
 */
export async function startTestS3(bucket = 'results'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'gw-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      RESULT_STORE: 's3',
      RESULT_S3_BUCKET: bucket,
      RESULT_S3_ENDPOINT: endpoint,
      RESULT_S3_REGION: 'us-east-1',
      RESULT_S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** s3rver's fixed credentials, through the standard AWS variables (as an operator would set them). */
export function useTestS3Credentials(): () => void {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  // The SDK's notice that later releases will need Node 22 says nothing about these tests.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return () => {
    restore('AWS_ACCESS_KEY_ID', saved.id);
    restore('AWS_SECRET_ACCESS_KEY', saved.secret);
  };
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
