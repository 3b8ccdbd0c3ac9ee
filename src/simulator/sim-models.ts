/**
 * The models a simulated upstream knows: public name -> the vendor's own name. The simulator
 * accepts both: its built-in channels send public names as they are, while a gateway pointed at
 * `npm run simulator` through `UPSTREAM_*` variables sends the vendor names of the default model map.
 * Each vendor keeps its own (`<vendor>/<vendor>-models.ts`), apart from config/upstream-models.json,
 * because the simulator plays the vendor.
 */
export type SimModels = Readonly<Record<string, string>>;

/** The public name for a public or vendor model name; undefined for a model this upstream does not know. */
export function simModelName(models: SimModels, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(models, name)) return name;
  return Object.keys(models).find((publicName) => models[publicName] === name);
}
