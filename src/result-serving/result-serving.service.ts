import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import send from 'send';
import { pipeline } from 'stream/promises';
import { ObjectStore } from '../core/result-keeping/object-store';
import { OpenDownload, ResultDownloads } from '../core/result-keeping/result-download';
import { ResultFileEntity } from '../core/result-keeping/result-file.entity';
import { ResultFilesRepository } from '../core/result-keeping/result-files.repository';
import { ResultLinks } from '../core/result-keeping/result-links';
import { RenewableLinks } from '../core/result-keeping/renewable-links';
import { isSlot, resultFileId, upstreamUrlOf } from '../core/result-keeping/result-slots';
import { isDeleted } from '../core/tasks/task-queries.service';
import { TasksRepository } from '../core/tasks/tasks.repository';
import { AppConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';

/** Headers of a file answer passed on from the upstream (the rest stay there). */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];
/** The upstream no longer has the file (its links expire). */
const UPSTREAM_GONE = new Set([401, 403, 404, 410]);
/** A presigned store URL given in a redirect lives this long: enough to start the download. */
const PRESIGN_SECONDS = 60;
/** Kept copies never change: clients and proxies may keep them for as long as the URL lives. */
const CACHE_CONTROL = 'private, max-age=3600';

/**
 * Answers a signed result URL: the kept copy once stored (Range, HEAD, ETag, Last-Modified), the
 * upstream's copy streamed through before that (and always for previews, and for renewable files
 * at the link their source gives now), 410 when neither exists any more, 404 once
 * retention has removed the copy or the task was deleted, 403 for a bad or expired signature.
 */
@Injectable()
export class ResultServing {
  constructor(
    private readonly links: ResultLinks,
    private readonly files: ResultFilesRepository,
    private readonly tasks: TasksRepository,
    private readonly store: ObjectStore,
    private readonly downloads: ResultDownloads,
    private readonly renewable: RenewableLinks,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async serve(token: string, req: Request, res: Response): Promise<void> {
    const verdict = this.links.verify(token);
    if (!verdict.ok)
      throw GatewayError.forbidden(
        verdict.reason === 'expired' ? 'The result URL has expired.' : 'The result URL is not valid.',
      );
    if (verdict.preview) return this.passThrough(verdict.preview.upstreamUrl, req, res);
    if (verdict.renewable) {
      const link = await this.renewable.current(verdict.renewable.source, verdict.renewable.key);
      if (!link) throw GatewayError.notFound('Result');
      return this.passThrough(link, req, res);
    }
    const { taskId, slot } = verdict.ref;
    if (!isSlot(slot)) throw GatewayError.notFound('Result');
    const file = await this.files.findById(resultFileId(taskId, slot));
    if (file?.status === 'removed') throw GatewayError.notFound('Result');
    if (file?.status === 'stored' && file.storageKey && (await this.serveStored(file, file.storageKey, req, res)))
      return;
    const upstreamUrl = file?.upstreamUrl ?? (await this.upstreamUrl(taskId, slot));
    if (!upstreamUrl) throw GatewayError.notFound('Result');
    await this.passThrough(upstreamUrl, req, res);
  }

  /** False when the store has lost the object (served from the upstream then, if it still can). */
  private async serveStored(file: ResultFileEntity, key: string, req: Request, res: Response): Promise<boolean> {
    const contentType = file.contentType ?? 'application/octet-stream';
    const path = this.store.localPath?.(key);
    if (path) return this.sendFile(path, contentType, req, res);
    if (this.config.RESULT_SERVE === 'redirect' && this.store.presignedUrl) {
      if (!(await this.store.head(key))) return false;
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, await this.store.presignedUrl(key, PRESIGN_SECONDS));
      return true;
    }
    const read = await this.store.read(key, req.headers.range);
    if (!read) return false;
    res.status(read.status);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    if (read.info.etag) res.setHeader('ETag', read.info.etag);
    res.setHeader('Last-Modified', read.info.lastModified.toUTCString());
    if (read.contentRange) res.setHeader('Content-Range', read.contentRange);
    res.setHeader('Content-Length', String(read.contentLength));
    if (req.method === 'HEAD' || !read.body) {
      read.body?.destroy();
      res.end();
      return true;
    }
    await pipeline(read.body, res).catch(() => undefined);
    return true;
  }

  /** `send` answers Range (206, 416), HEAD, ETag, Last-Modified and conditional requests for a local file. */
  private sendFile(path: string, contentType: string, req: Request, res: Response): Promise<boolean> {
    return new Promise((resolve) => {
      send(req, path, { acceptRanges: true, etag: true, lastModified: true, cacheControl: false, dotfiles: 'allow' })
        .on('headers', (out: Response) => {
          out.setHeader('Content-Type', contentType);
          out.setHeader('Cache-Control', CACHE_CONTROL);
        })
        .on('error', (error: { status?: number; headers?: Record<string, string> }) => {
          if (error.status === 404) return resolve(false);
          // 416 and the like: the status and its headers (Content-Range), no body.
          if (error.status && error.status < 500 && !res.headersSent) {
            for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
            res.status(error.status).end();
          } else res.destroy();
          resolve(true);
        })
        .on('end', () => resolve(true))
        .on('close', () => resolve(true))
        .pipe(res);
      res.once('finish', () => resolve(true));
    });
  }

  /** A file not kept (yet): looked up from the task, for tasks that ended before keeping began; none once deleted. */
  private async upstreamUrl(taskId: string, slot: string): Promise<string | undefined> {
    const task = await this.tasks.findById(taskId);
    return task?.phase === 'succeeded' && !isDeleted(task) ? upstreamUrlOf(task, slot) : undefined;
  }

  /** Streams the upstream's copy through, with the client's Range; never buffers the file. */
  private async passThrough(url: string, req: Request, res: Response): Promise<void> {
    let upstream: OpenDownload;
    try {
      upstream = await this.downloads.open(url, this.config.UPSTREAM_TIMEOUT_MS, {
        method: req.method === 'HEAD' ? 'HEAD' : 'GET',
        range: req.headers.range,
      });
    } catch {
      throw GatewayError.unavailable('The result file could not be fetched from the upstream.');
    }
    try {
      if (UPSTREAM_GONE.has(upstream.status))
        throw new GatewayError(410, 'not_found', 'The result file has expired at the upstream and no copy was kept.');
      if (upstream.status >= 500) throw GatewayError.unavailable('The upstream could not serve the result file.');
      res.status(upstream.status);
      for (const name of PASSED_HEADERS) {
        const value = upstream.headers[name];
        if (value !== undefined) res.setHeader(name, value);
      }
      if (req.method === 'HEAD') res.end();
      else await pipeline(upstream.body, res).catch(() => undefined);
    } finally {
      upstream.close();
    }
  }
}
