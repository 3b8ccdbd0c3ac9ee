/** kl's names: its ID (URL segment, upstream protocol), its task actions and models. */
export const KL_FAMILY_ID = 'kl';
/** Editing tasks (`/kl/v1/videos/multi-elements`); also the list item `action`. */
export const KL_MULTI_ELEMENTS = 'multi_elements';
/** Custom voice tasks (`/kl/v1/general/custom-voices`); also the list item `action`. */
export const KL_CUSTOM_VOICES = 'custom_voices';
/** The model used when a request names none. */
export const KL_DEFAULT_MODEL = 'kl-v1';
/** The only model of the editing-task endpoint. */
export const KL_EDITING_TASK_MODEL = 'kl-v1-6';
