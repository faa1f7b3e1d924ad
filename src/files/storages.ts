// The storages of an installation, chosen here where both are known: PostgreSQL's (storage.ts) and the S3 bucket
// (s3-storage.ts). Each of those knows only the FileStorage interface, so the imports run one way.
import type { Config } from '../config.ts';
import { S3FileStorage } from './s3-storage.ts';
import { type FileStorage, postgresFileStorage, type StorageName } from './storage.ts';

/** The storages of an installation: where new files go, and each storage a file may be in. */
export class FileStorages {
  readonly current: FileStorage;

  /** @param s3 the bucket, when S3_BUCKET is set (files written there stay readable after a switch back). */
  constructor(
    currentName: StorageName,
    readonly s3: S3FileStorage | undefined,
  ) {
    this.current = this.of(currentName);
  }

  static fromConfig(config: Config): FileStorages {
    return new FileStorages(config.FILE_STORAGE, S3FileStorage.fromConfig(config));
  }

  /** The storage named in a file's row. */
  of(name: string): FileStorage {
    if (name === 'postgres') return postgresFileStorage;
    if (name === 's3' && this.s3) return this.s3;
    throw new Error(`a file is kept in storage "${name}", which is not configured (S3_BUCKET for s3)`);
  }
}
