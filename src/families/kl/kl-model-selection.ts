import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { GatewayError } from '../../platform/errors';
import { ModelSelector, bodyFields } from '../../core/accounts/guards/model-access.guard';
import { KL_DEFAULT_MODEL } from './kl.ids';

/**
 * kl's rule: `model_name`, else `model`, else the endpoint's
 * default. `check` may refuse a named model before the guard looks it up (the editing-task endpoint).
 */
export function klModelSelector(defaultModel: string, check?: (name: string, param: string) => void): ModelSelector {
  return (body) => {
    const fields = bodyFields(body);
    for (const param of ['model_name', 'model']) {
      const value = fields[param];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || value === '')
        throw GatewayError.invalid(`${param} must be a non-empty string.`, param);
      check?.(value, param);
      return { name: value, param };
    }
    return { name: defaultModel, param: 'model_name' };
  };
}

/** Every kl create or manage POST but the editing task: default `kl-v1`. */
export const klModelSelection: ModelSelector = klModelSelector(KL_DEFAULT_MODEL);

/** The fields the model rule reads, accepted on every kl POST body (and never forwarded upstream). */
export class KlModelFieldsDto {
  @ApiPropertyOptional({
    example: 'kl-v1',
    description: 'Selects the model; else `model`; else the endpoint default (kl-v1; kl-v1-6 for editing tasks).',
  })
  @IsOptional()
  @IsString()
  model_name?: string;

  @ApiPropertyOptional({ description: 'Read when model_name is absent.' })
  @IsOptional()
  @IsString()
  model?: string;
}
