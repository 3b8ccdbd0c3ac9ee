import { KlSessionEntity } from './kl/sessions/kl-session.entity';
import { KlVoiceEntity } from './kl/voices/kl-voice.entity';

/** Entities that families own (family A's sessions, voices, videos), for the TypeORM CLI list. */
export const FAMILY_ENTITIES: Array<new () => object> = [KlSessionEntity, KlVoiceEntity];
