import { previewUrls } from '../../../core/result-keeping/result-url';
import { asArray, asNumber, asRecord, isRecord } from '../../../upstream/http/lenient';
import { KlSessionEntity } from './kl-session.entity';

type Json = Record<string, unknown>;

/**
 * The `data` of the session answers: only the documented fields of the upstream's `data` pass,
 * with the gateway's session ID in place of the upstream's and the native credit figure as text.
 */
export function klSessionData(session: KlSessionEntity, data: Json): Json {
  return {
    status: klSessionStatus(data),
    session_id: session.id,
    final_unit_deduction: klDeduction(data.final_unit_deduction),
  };
}

/** add-selection and delete-selection: the session fields and the frame's mask result. */
export function klSelectionData(session: KlSessionEntity, data: Json): Json {
  return { ...klSessionData(session, data), ...(data.res === undefined ? {} : { res: maskResult(data.res) }) };
}

/** preview-selection: the session fields and the preview files, under the gateway's URLs (they stay at the upstream). */
export function klPreviewData(session: KlSessionEntity, data: Json): Json {
  if (data.res === undefined) return klSessionData(session, data);
  return {
    ...klSessionData(session, data),
    res: previewUrls(pick(data.res, ['video', 'video_cover', 'tracking_output'])),
  };
}

/** The upstream's recognition code: 0 when it reports none, non-zero when it could not do what was asked. */
export function klSessionStatus(data: Json): number {
  return asNumber(data.status) ?? 0;
}

/** The native credit figure as text ('0' when the upstream gives none). */
export function klDeduction(value: unknown): string {
  return value === undefined || value === null ? '0' : String(value);
}

function maskResult(value: unknown): Json {
  const res = pick(value, ['frame_index']);
  const list = asRecord(value).rle_mask_list;
  if (list === undefined) return res;
  return {
    ...res,
    rle_mask_list: asArray(list).map((item) => {
      const object = pick(item, ['object_id']);
      const masks = asRecord(item);
      if (masks.rle_mask !== undefined) object.rle_mask = pick(masks.rle_mask, ['size', 'counts']);
      if (masks.png_mask !== undefined) object.png_mask = pick(masks.png_mask, ['size', 'base64']);
      return object;
    }),
  };
}

/** The named fields of an object that has them; a non-object gives an empty one. */
function pick(value: unknown, keys: readonly string[]): Json {
  if (!isRecord(value)) return {};
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
}
