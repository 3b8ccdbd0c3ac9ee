/** ax's names: its ID (URL segment, upstream protocol) and its one task action. */
export const AX_FAMILY_ID = 'ax';
export const AX_REFERENCE2VIDEO = 'reference2video';
