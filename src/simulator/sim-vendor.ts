import type { ChaosStatusWords } from './chaos';
import type { FamilyContext, FamilySimulator } from './family';
import type { NativeErrors } from './http/sim-answer';
import type { SimModels } from './sim-models';
import type { SimCredentials } from './sim-types';

/**
 * One simulated upstream vendor, in its folder (`src/simulator/<id>/index.ts`): the simulator
 * starts one server per entry of its list (`sim-vendors.ts`) and names none of them.
 */
export interface SimVendor {
  /** The upstream vendor's id it plays (`UpstreamVendor.id`). */
  readonly id: string;
  /** The native error bodies (answers to faults and unknown routes). */
  readonly errors: NativeErrors;
  /** Where its answers carry status words, for the status faults of `SIM_CHAOS`. */
  readonly statusWords: ChaosStatusWords;
  /** The models it knows: public name -> the vendor's own name. */
  readonly models: SimModels;
  /** Port of `npm run simulator` unless `SIM_PORT_<ID>` says otherwise. */
  readonly defaultPort: number;
  /** Fresh random credentials for one start. */
  randomCredentials(): SimCredentials;
  create(context: FamilyContext): FamilySimulator;
}
