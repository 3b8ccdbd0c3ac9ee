import { DynamicModule, Module } from '@nestjs/common';
import { PricingCatalogue } from '../core/billing/pricing';
import { ModelCatalogue } from '../core/models/model-catalogue';
import { TaskFamilies } from '../core/tasks/task-families';
import { FamilyRegistry } from './family-registry';

/** Registers the family definitions with the core: the registry behind each of the core's family ports. */
@Module({})
export class FamiliesModule {
  static forRoot(registry: FamilyRegistry): DynamicModule {
    const ports = [FamilyRegistry, ModelCatalogue, PricingCatalogue, TaskFamilies].map((provide) => ({
      provide,
      useValue: registry,
    }));
    return {
      module: FamiliesModule,
      global: true,
      providers: ports,
      exports: ports.map((p) => p.provide),
    };
  }
}
