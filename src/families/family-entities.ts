/** Entities that families own (family A's sessions, voices, videos), for the TypeORM CLI list. */
export const FAMILY_ENTITIES: Function[] = [];
