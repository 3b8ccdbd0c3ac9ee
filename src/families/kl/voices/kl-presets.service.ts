import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { RenewableLinks } from '../../../core/result-keeping/renewable-links';
import { renewableUrl } from '../../../core/result-keeping/result-url';
import { GatewayError } from '../../../platform/errors';
import { upstreamRejection } from '../../../core/tasks/upstream-rejection';
import { addUpstreamTime, RequestContext } from '../../../platform/http/request-context';
import { Clock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KL_PATHS } from '../../../upstream/kl/kl.api';
import { KlClient } from '../../../upstream/kl/kl.client';
import { payloadKind } from '../../../upstream/http/lenient';
import { UpstreamRejectedError, UpstreamTiming } from '../../../upstream/upstream.types';
import { KL_FAMILY_ID } from '../kl.ids';

/** A page of official voices is fresh this long; within it the upstream is not asked again. */
export const KL_PRESETS_FRESH_MS = 60_000;
/** After that it is still served while the upstream is down, up to this age. */
export const KL_PRESETS_STALE_MS = 24 * 60 * 60_000;
const MAX_PAGES_CACHED = 100;
/**
 * The upstream's trial links live 10 minutes: one fetched longer ago than this is fetched afresh
 * before it is streamed, so a download starts well within the link's life.
 */
export const KL_PRESET_LINK_FRESH_MS = 5 * 60_000;
/** The source name of the trial audio's renewable links. */
export const KL_PRESET_TRIALS = 'kl-preset-trials';

export interface KlPresetVoice {
  voice_id: string;
  voice_name: string;
  trial_url: string;
  owned_by: string;
}

export interface KlPresetItem {
  task_id: string;
  task_status: string;
  task_status_msg: string;
  task_result: { voices: KlPresetVoice[] };
  created_at: number;
  updated_at: number;
}

interface CachedPage {
  items: KlPresetItem[];
  fetchedAt: number;
}

/**
 * Official preset voices from the upstream, per page, kept in memory: fresh
 * for 60 s, then refetched; when the refetch fails for an upstream fault the last copy (up to 24 h
 * old) is served instead; with no copy at all the answer is 503. Concurrent misses share one call.
 *
 * A voice's `trial_url` is the upstream's signed link, which expires after 10 minutes: clients get
 * a gateway URL instead (signed like other result URLs), which streams the voice's link from the
 * cached page while it is under 5 minutes old, and from the page fetched afresh otherwise.
 */
@Injectable()
export class KlPresetsService implements OnModuleInit {
  private readonly logger = new Logger('KlPresets');
  private readonly cache = new Map<string, CachedPage>();
  private readonly inFlight = new Map<string, Promise<KlPresetItem[]>>();

  constructor(
    private readonly client: KlClient,
    private readonly channels: ChannelRegistry,
    private readonly clock: Clock,
    private readonly renewable: RenewableLinks,
  ) {}

  onModuleInit(): void {
    this.renewable.register(KL_PRESET_TRIALS, (key) => this.trialLink(key));
  }

  /** A page as clients get it: each trial URL the gateway's (see the class comment). */
  async presentedPage(pageNum: number, pageSize: number, context?: RequestContext): Promise<KlPresetItem[]> {
    const items = await this.page(pageNum, pageSize, context);
    return items.map((item) => ({
      ...item,
      task_result: {
        voices: item.task_result.voices.map((voice) => ({
          ...voice,
          trial_url: renewableUrl(KL_PRESET_TRIALS, trialKey(pageNum, pageSize, voice.voice_id), voice.trial_url),
        })),
      },
    }));
  }

  /**
   * A current upstream link of the trial audio `key` names: from the cached page while its links
   * are fresh enough, else from the page fetched afresh (or, while the upstream fails, the cached
   * one as it is). Undefined for a voice the page does not hold.
   */
  async trialLink(key: string): Promise<string | undefined> {
    const ref = parseTrialKey(key);
    if (!ref) return undefined;
    const pageKey = `${ref.pageNum}:${ref.pageSize}`;
    const cached = this.cache.get(pageKey);
    let items = cached && this.clock.nowMs() - cached.fetchedAt < KL_PRESET_LINK_FRESH_MS ? cached.items : undefined;
    items ??= await this.fetchShared(pageKey, ref.pageNum, ref.pageSize, undefined).catch((error: unknown) => {
      this.logger.warn({ err: error, page: pageKey }, 'preset trial link not renewed: the upstream is failing');
      return cached?.items;
    });
    const voice = items?.flatMap((item) => item.task_result.voices).find((v) => v.voice_id === ref.voiceId);
    return voice?.trial_url || undefined;
  }

  /** `context`: the asking request's, whose Server-Timing gets the upstream time when this call fetches. */
  async page(pageNum: number, pageSize: number, context?: RequestContext): Promise<KlPresetItem[]> {
    const key = `${pageNum}:${pageSize}`;
    const cached = this.cache.get(key);
    const now = this.clock.nowMs();
    if (cached && now - cached.fetchedAt < KL_PRESETS_FRESH_MS) return cached.items;
    try {
      return await this.fetchShared(key, pageNum, pageSize, context);
    } catch (error) {
      if (error instanceof UpstreamRejectedError) {
        throw upstreamRejection(error);
      }
      if (cached && now - cached.fetchedAt < KL_PRESETS_STALE_MS) {
        this.logger.warn({ err: error, page: key }, 'preset voices served from the cache: the upstream is failing');
        return cached.items;
      }
      if (error instanceof GatewayError) throw error;
      throw GatewayError.unavailable('The official voice list is temporarily unavailable.');
    }
  }

  /** Whether `voiceId` is one of the official voices (the first 500, from the cache when it can). */
  async isOfficial(voiceId: string, context?: RequestContext): Promise<boolean> {
    try {
      const items = await this.page(1, 500, context);
      return items.some((item) => item.task_result.voices.some((voice) => voice.voice_id === voiceId));
    } catch {
      return false;
    }
  }

  private fetchShared(
    key: string,
    pageNum: number,
    pageSize: number,
    context: RequestContext | undefined,
  ): Promise<KlPresetItem[]> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const call = this.fetch(key, pageNum, pageSize, context).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return call;
  }

  private async fetch(
    key: string,
    pageNum: number,
    pageSize: number,
    context: RequestContext | undefined,
  ): Promise<KlPresetItem[]> {
    const timing: UpstreamTiming = { upstreamMs: 0 };
    try {
      const channel = this.channels.forFamily(KL_FAMILY_ID);
      const data = await this.client.call<unknown>(
        channel,
        'GET',
        KL_PATHS.presetsVoices,
        { pageNum, pageSize },
        { timing },
      );
      if (!Array.isArray(data))
        this.logger.warn(
          { family: KL_FAMILY_ID, channel: channel.id, answer: payloadKind(data), req: { id: context?.requestId } },
          'upstream preset voices answer not understood; none listed',
        );
      const items = Array.isArray(data) ? data.map(toPresetItem) : [];
      this.remember(key, items);
      return items;
    } finally {
      addUpstreamTime(context, timing.upstreamMs);
    }
  }

  private remember(key: string, items: KlPresetItem[]): void {
    this.cache.delete(key);
    this.cache.set(key, { items, fetchedAt: this.clock.nowMs() });
    // Insertion order is age order: drop the oldest page beyond the bound.
    if (this.cache.size > MAX_PAGES_CACHED) this.cache.delete(this.cache.keys().next().value as string);
  }
}

/** Where a trial URL's voice is: its page, and its voice ID (Base64URL, so the key holds no separator). */
function trialKey(pageNum: number, pageSize: number, voiceId: string): string {
  return `${pageNum}.${pageSize}.${Buffer.from(voiceId).toString('base64url')}`;
}

function parseTrialKey(key: string): { pageNum: number; pageSize: number; voiceId: string } | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.([A-Za-z0-9_-]+)$/.exec(key);
  if (!match) return undefined;
  return {
    pageNum: Number(match[1]),
    pageSize: Number(match[2]),
    voiceId: Buffer.from(match[3], 'base64url').toString(),
  };
}

/** Only the documented fields, typed, whatever else the upstream sends. */
function toPresetItem(raw: unknown): KlPresetItem {
  const item = record(raw);
  const voices = Array.isArray(record(item.task_result).voices) ? (record(item.task_result).voices as unknown[]) : [];
  return {
    task_id: str(item.task_id),
    task_status: str(item.task_status) || 'succeed',
    task_status_msg: str(item.task_status_msg),
    task_result: {
      voices: voices.map((v) => {
        const voice = record(v);
        return {
          voice_id: str(voice.voice_id),
          voice_name: str(voice.voice_name),
          trial_url: str(voice.trial_url),
          owned_by: str(voice.owned_by) || 'kl',
        };
      }),
    },
    created_at: num(item.created_at),
    updated_at: num(item.updated_at),
  };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number(value) || 0;
}
