import { FAMILIES } from '../../src/families';
import { FamilyRegistry } from '../../src/families/family-registry';

/** The registry the app builds from every family: what core unit tests price and present with. */
export const FAMILY_REGISTRY = new FamilyRegistry(FAMILIES);
