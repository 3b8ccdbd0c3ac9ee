import type { AppConfig } from '../config/app-config';
import { FsObjectStore } from './fs-object-store';
import { S3ObjectStore } from './s3-object-store';

/** The store RESULT_STORE names (`off` still gets the fs one: it is never written to then). */
export function createObjectStore(config: AppConfig): FsObjectStore | S3ObjectStore {
  if (config.RESULT_STORE !== 's3') return new FsObjectStore(config.RESULT_STORE_DIR);
  if (!config.RESULT_S3_BUCKET) throw new Error('RESULT_STORE=s3 needs RESULT_S3_BUCKET');
  return new S3ObjectStore({
    bucket: config.RESULT_S3_BUCKET,
    endpoint: config.RESULT_S3_ENDPOINT,
    region: config.RESULT_S3_REGION,
    forcePathStyle: config.RESULT_S3_FORCE_PATH_STYLE,
  });
}
