import { Injectable, PipeTransform } from '@nestjs/common';
import { ModelCatalogue } from '../core/models/model-catalogue';
import { GatewayError } from '../platform/errors';
import { capEchoed } from '../platform/validation/validate-dto';

/** The filters of the admin lists whose values the catalogue knows. */
interface CatalogueFilters {
  family?: string;
  model?: string;
}

/**
 * After `AdminQueryPipe`: a `family` or `model` filter must name one the gateway serves, else 400
 * naming the parameter. A filter that can match nothing is a mistake, never an empty page.
 */
@Injectable()
export class AdminFiltersPipe implements PipeTransform {
  constructor(private readonly catalogue: ModelCatalogue) {}

  transform<T extends CatalogueFilters>(query: T): T {
    if (query.family !== undefined) {
      const families = [...new Set(this.catalogue.all().map((m) => m.family))];
      if (!families.includes(query.family))
        throw GatewayError.invalid(
          `family must be one of ${families.join(', ')} (the first segment of the family's paths), not '${capEchoed(query.family)}'.`,
          'family',
        );
    }
    if (query.model !== undefined && !this.catalogue.find(query.model))
      throw GatewayError.invalid(`model '${capEchoed(query.model)}' is not a model of the catalogue.`, 'model');
    return query;
  }
}
