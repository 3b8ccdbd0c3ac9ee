import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { existsSync } from 'fs';
import { resolve } from 'path';

/**
 * Reads `.env` (in the working directory) into process.env through @nestjs/config, as Nest
 * applications do. A variable already set in the real environment wins over the file. Returns
 * the absolute path of the file read, or null when there is none.
 */
export async function loadEnvFile(path = '.env'): Promise<string | null> {
  const file = resolve(path);
  if (!existsSync(file)) return null;
  await NestConfigModule.forRoot({ envFilePath: file });
  return file;
}
