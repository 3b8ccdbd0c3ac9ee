/** vd's names: its ID (URL segment, upstream protocol) and its one task action. */
export const VD_FAMILY_ID = 'vd';
export const VD_REFERENCE2VIDEO = 'reference2video';
