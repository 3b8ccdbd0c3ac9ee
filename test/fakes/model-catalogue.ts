import { ModelCatalogue, ModelDescriptor } from '../../src/core/models/model-catalogue';

/** A catalogue of the given models (by default one of family `ax` with two capabilities). */
export class FixedModelCatalogue extends ModelCatalogue {
  constructor(
    private readonly models: readonly ModelDescriptor[] = [
      { name: 'ax-model', family: 'ax', protocol: 'v1', capabilities: ['r2v', 'query'] },
    ],
  ) {
    super();
  }

  all(): readonly ModelDescriptor[] {
    return this.models;
  }

  find(name: string): ModelDescriptor | undefined {
    return this.models.find((model) => model.name === name);
  }

  capabilities(): readonly string[] {
    return [...new Set(this.models.flatMap((model) => model.capabilities))];
  }
}
